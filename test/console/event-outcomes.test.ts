import { describe, expect, it } from 'vitest';
import { eventLines, indexOutcomes } from '../../src/console/data/event-outcomes.js';
import { recordedMessages } from '../../src/console/data/record-messages.js';
import type { AttemptRow, RecordedAttempt } from '../../src/state/delivery-record.js';
import type { Inflight, Parked } from '../../src/state/outbox.js';
import { makeEvent } from '../routing/events.js';

// The events page says where each event went from the record of sent messages (the rows
// `deliveries export` writes) and the outboxes: what it shows and what the export shows are the same rows.

const notice = { type: 'notice', key: 'k', severity: 'info', title: 't', text: 'x' } as const;
const failed = { answer: 'error', action: 'retry', status: 500, cause: 'rollup_error' } as const;
let sequence = 0;

/** A row of the record: one attempt's answer for message `deliveryId` carrying `eventIds` on `channel`. */
function row(
  deliveryId: string,
  eventIds: string[] | undefined,
  answer: Partial<AttemptRow> = {},
  channel = 'desk',
): RecordedAttempt {
  sequence += 1;
  return {
    channel,
    channelKind: 'slack',
    deliveryId,
    type: 'events',
    issuers: [{ id: 'ISS-ACME', name: 'Acme Plc' }],
    holders: ['Marshall Wace LLP'],
    kinds: ['increased'],
    events: eventIds?.length ?? 1,
    ...(eventIds ? { eventIds } : {}),
    answer: 'ok',
    ...answer,
    id: `${1_000 + sequence}-0`,
    at: 1_000 + sequence,
  };
}

function inflightOf(deliveryId: string, eventIds: string[], attempts: number): Inflight {
  return { deliveryId, message: notice, eventIds, attempts, partsSent: 0, nextAttemptAt: 0, claimedAt: 0 };
}

function parkedOf(deliveryId: string, eventIds: string[], attempts: number): Parked {
  return { ...inflightOf(deliveryId, eventIds, attempts), channel: 'desk', parkedAt: 5, lastError: '500' };
}

/** The desk line of event `id`, routed to the desk. */
function deskOutcome(index: ReturnType<typeof indexOutcomes>, id: string) {
  const logged = {
    event: makeEvent({ id }),
    routes: [{ channel: 'desk', verdict: 'send' as const, reason: 'ok' }],
  };
  return eventLines(logged, index)[0]?.outcome;
}

describe('where an event went, as the record and the outboxes tell it', () => {
  it('a two-event message taken at its third attempt: delivered after 3 attempts, for both events', () => {
    const rows = [
      row('d-1', ['ea', 'eb'], failed),
      row('d-1', ['ea', 'eb'], failed),
      row('d-1', ['ea', 'eb']),
    ];
    const taken = rows[2]?.at;
    const index = indexOutcomes({ recorded: recordedMessages(rows), parked: [], inflight: [] });
    for (const id of ['ea', 'eb'])
      expect(deskOutcome(index, id)).toEqual({ state: 'sent', at: taken, attempts: 3, deliveryId: 'd-1' });
  });

  it('parked after two refusals: parked, counting the attempts the record holds', () => {
    const rows = [row('d-2', ['ec'], failed), row('d-2', ['ec'], { ...failed, action: 'park' })];
    const index = indexOutcomes({
      recorded: recordedMessages(rows),
      parked: [parkedOf('d-2', ['ec'], 1)],
      inflight: [],
    });
    expect(deskOutcome(index, 'ec')).toMatchObject({ state: 'parked', attempts: 2, deliveryId: 'd-2' });
  });

  it('parked, retried and taken: delivered, with every attempt before and after the retry', () => {
    const rows = [row('d-3', ['ed'], failed), row('d-3', ['ed'], failed), row('d-3', ['ed'])];
    const index = indexOutcomes({ recorded: recordedMessages(rows), parked: [], inflight: [] });
    expect(deskOutcome(index, 'ed')).toMatchObject({ state: 'sent', attempts: 3 });
  });

  it('being sent again after a refusal: sending, and the record counts the refusal', () => {
    const index = indexOutcomes({
      recorded: recordedMessages([row('d-4', ['ee'], failed)]),
      parked: [],
      inflight: [{ channel: 'desk', inflight: inflightOf('d-4', ['ee'], 0) }],
    });
    expect(deskOutcome(index, 'ee')).toMatchObject({ state: 'sending', attempts: 1 });
  });

  it('taken on another channel only, or recorded without event ids: still queued on the desk', () => {
    const rows = [row('d-5', ['ef'], {}, 'alerts'), row('d-6', undefined)];
    const index = indexOutcomes({ recorded: recordedMessages(rows), parked: [], inflight: [] });
    expect(deskOutcome(index, 'ef')).toEqual({ state: 'queued' });
  });
});
