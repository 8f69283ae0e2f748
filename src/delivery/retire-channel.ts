import { stateKeys } from '../state/keys.js';
import { Lease } from '../state/lease.js';
import type { Outbox } from '../state/outbox.js';
import { composeNext, inflightOf } from './compose.js';
import { DRAIN_LEASE_MS } from './deliverer.js';
import type { DeliveryParts } from './parts.js';

/** What retiring a channel touches: its outbox under its drain lease. */
export type RetireParts = Pick<DeliveryParts, 'prefix' | 'processId' | 'redis' | 'now'> & {
  outbox: Pick<Outbox, 'inflight' | 'finish' | 'ready' | 'digestEvents' | 'claim' | 'stagedCount'>;
};

/** What retiring a removed channel left behind: messages parked, digest events still staged. */
export interface Retired {
  parked: number;
  staged: number;
}

const REASON = 'the channel was removed from the config';
const READ_LIMIT = 500;

/**
 * Parks everything queued for a channel that left the config, so nothing is stranded where no deliverer
 * looks: the message in flight as it was, then every waiting item, one message per issuer (quiet hours
 * ignored). They stay in the channel's dead letter, listed by `shortwatch deliveries --failed` and sent
 * by `deliveries retry` once the channel is back. A digest's staged events stay staged (sealing needs
 * the channel's schedule): they go out with its next digest if the channel returns. Works under the
 * channel's drain lease, so a process still running the old config cannot send what is being parked;
 * `busy` when that process holds it (try again later).
 */
export async function retireChannel(ctx: RetireParts, channel: string): Promise<Retired | 'busy'> {
  const box = stateKeys(ctx.prefix).outbox(channel);
  const lease = new Lease(ctx.redis, box.lease, `${ctx.processId}|${channel}|retire`, DRAIN_LEASE_MS);
  if (!(await lease.take())) return 'busy';
  const { outbox } = ctx;
  let parked = 0;
  try {
    const now = ctx.now().getTime();
    const inflight = await outbox.inflight(channel);
    if (inflight) {
      if (!(await outbox.finish(channel, lease.owner, { ...inflight, lastError: REASON }, 'parked', now)))
        return 'busy';
      parked++;
    }
    for (;;) {
      const { items } = await outbox.ready(channel, Number.MAX_SAFE_INTEGER, READ_LIMIT);
      const first = items[0];
      if (!first) break;
      const digestEvents = first.kind === 'digest' ? await outbox.digestEvents(channel, first.batchId) : [];
      const next = composeNext(channel, items, () => 1, 1, digestEvents);
      if (!next) break;
      const record = inflightOf(next, now, { lastError: REASON });
      if ((await outbox.claim(channel, lease.owner, record, next.itemIds)) !== 'claimed') return 'busy';
      if (!(await outbox.finish(channel, lease.owner, record, 'parked', now))) return 'busy';
      parked++;
    }
    return { parked, staged: await outbox.stagedCount(channel) };
  } finally {
    await lease.release();
  }
}
