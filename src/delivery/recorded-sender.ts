import type { ChannelSender } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import type { AttemptRow, DeliveryRecord, RecordLimits } from '../state/delivery-record.js';
import type { Logger } from '../telemetry/logger.js';
import { within } from '../time/within.js';
import { attemptRow } from './attempt-row.js';

/** How long a send waits for its row of the record: a Redis that answers takes milliseconds. */
const RECORD_WRITE_MS = 2_000;

/** What a recording sender writes to. */
export interface RecordDeps {
  record: DeliveryRecord;
  limits: RecordLimits;
  logger: Logger;
}

/**
 * A channel's sender that writes each delivery attempt's answer to the record of sent messages (the
 * deliverer's sends carry a delivery id; `test-notify`'s sample has none and is not recorded). The answer
 * is recorded where it is known, before the deliverer acts on it, and the send's own outcome is passed on
 * unchanged.
 */
export function recordedSender(
  sender: ChannelSender,
  channel: ChannelConfig,
  deps: RecordDeps,
): ChannelSender {
  const note = async (row: AttemptRow) => {
    try {
      // Bounded: on a frozen (half-open) connection the write never answers, and a send that waits for it
      // stays "under way" for ever: its process, stuck, exits without handing the send over, and the
      // next lease holder sends the message again (the chaos rounds). A write left behind may still land.
      await within(deps.record.append(row, deps.limits), RECORD_WRITE_MS, 'writing the record');
    } catch (error) {
      // The message's own state (in flight, finished, parked) decides what happens next: a record that
      // cannot be written must not turn a delivered message into a retry, so it is only reported.
      deps.logger.error(
        { channel: channel.name, deliveryId: row.deliveryId, err: error },
        'delivery record not written',
      );
    }
  };
  return {
    async send(message, progress) {
      if (progress === undefined) return sender.send(message, progress);
      try {
        await sender.send(message, progress);
      } catch (error) {
        await note(attemptRow(channel, message, progress.deliveryId, error));
        throw error;
      }
      await note(attemptRow(channel, message, progress.deliveryId));
    },
    coalesce: (groups) => sender.coalesce(groups),
    verify: () => sender.verify(),
    close: () => sender.close(),
  };
}
