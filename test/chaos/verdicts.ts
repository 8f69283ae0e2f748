import { DeliveryRecord } from '../../src/state/delivery-record.js';
import type { Hazard } from './faults.js';
import { type Duplicate, expectedUnits, judge, type StepRecord, type Verdict } from './oracle.js';
import { digestReceived, emailReceived, slackReceived, webhookReceived } from './received.js';
import { ALERTS_TO, type ChaosWorld, DIGEST_TO } from './world.js';

/** A message the record of sent messages says its channel took, with the Redis time it was taken at. */
interface SentEntry {
  at: number;
  record: { deliveryId: string; type: string; events: number; attempts: number };
}

/** The messages `channel` took between `from` and `to` (epoch ms), from the record's rows. */
async function sentBetween(
  world: ChaosWorld,
  channel: string,
  from: number,
  to: number,
): Promise<SentEntry[]> {
  const rows = await new DeliveryRecord(world.redis, world.root).newest(from, to, 10_000);
  const mine = rows.filter((row) => row.channel === channel);
  return mine
    .filter((row) => row.answer === 'ok')
    .map((row) => ({
      at: row.at,
      record: {
        deliveryId: row.deliveryId,
        type: row.type,
        events: row.events,
        attempts: mine.filter((other) => other.deliveryId === row.deliveryId).length,
      },
    }))
    .reverse();
}

/**
 * For duplicates nothing explains: the messages the deliverer logged as sent on that channel around
 * either copy (delivery id, events, attempts), so the story shows how the repeat came about.
 */
export async function diagnoseDuplicates(
  world: ChaosWorld,
  verdict: Verdict,
  startedAt: number,
): Promise<string[]> {
  const channel = verdict.name;
  const bad = verdict.duplicates.filter((d) => d.explainedBy === undefined).slice(0, 5);
  const t = (ms: number) => `+${((ms - startedAt) / 1000).toFixed(1)}s`;
  return Promise.all(
    bad.map(async (d: Duplicate) => {
      const around = async (at: number) => {
        const sent = await sentBetween(world, channel, at - 1_000, at + 5_000);
        return sent
          .map(
            (s) =>
              `${s.record.deliveryId} (${s.record.type}, ${s.record.events} event(s), ${s.record.attempts} attempt(s)) logged ${t(s.at)}`,
          )
          .join(', ');
      };
      const [first, second] = await Promise.all([around(d.original.at), around(d.unit.at)]);
      return `${verdict.channel} ${d.unit.key}: sends logged after the first copy: ${first || 'none'} | after the second: ${second || 'none'}`;
    }),
  );
}

/** Each channel's verdict: events on the webhook and on Slack and e-mail (by issuer), lines in the digests. */
export function judgeChannels(
  world: ChaosWorld,
  steps: readonly StepRecord[],
  hazards: readonly Hazard[],
): Verdict[] {
  const { scenario } = world.stack.sandbox;
  const expected = expectedUnits(steps, (id) => scenario.issuer(id)?.name ?? id);
  const { slack, smtp } = world.stack;
  return [
    judge({
      name: 'hook',
      channel: 'hook (webhook)',
      unitName: 'event',
      expected: expected.events,
      received: webhookReceived(world.receiver),
      hazards,
      rule: 'never',
    }),
    judge({
      name: 'desk',
      channel: 'desk (Slack)',
      unitName: 'change',
      expected: expected.changes,
      received: slackReceived(slack.posts),
      hazards,
      rule: 'resend-after-crash',
    }),
    judge({
      name: 'alerts',
      channel: 'alerts (email)',
      unitName: 'change',
      expected: expected.changes,
      received: emailReceived(smtp.mails, ALERTS_TO),
      hazards,
      rule: 'same-message-id',
    }),
    judge({
      name: 'morning',
      channel: 'morning (digest)',
      unitName: 'digest line',
      expected: expected.digest,
      received: digestReceived(smtp.mails, DIGEST_TO),
      hazards,
      rule: 'same-message-id',
    }),
  ];
}
