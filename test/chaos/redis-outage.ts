import { setTimeout as sleep } from 'node:timers/promises';
import type { Random } from '../../src/sandbox/prng.js';
import type { FaultContext } from './fault-context.js';
import { activeWork, atMoment, waitUntil } from './process-faults.js';

/**
 * Redis unreachable for 1-5 s at a random point of a delivery (before, inside or right after a send),
 * every process alive: the deliverer keeps what it sent and records it once Redis answers, so nothing
 * may be sent twice. The outage is not a hazard: no repeat near it is excused.
 */
export async function redisOutage(ctx: FaultContext, rng: Random): Promise<void> {
  const { members } = ctx.world.fleet;
  // Every process alive: no outage while one restarts, and no kill during it (a kill skips a busy member).
  await waitUntil(async () => members.every((m) => !m.busy), 50_000);
  await waitUntil(() => atMoment(ctx.world, 'deliver'), 4_000);
  await sleep(rng.int(0, 400));
  const held = members.filter((m) => !m.busy);
  for (const member of held) member.busy = true;
  const ms = rng.int(1_000, 5_000);
  const at = Date.now();
  ctx.outages.push({
    from: at,
    to: at + ms,
    what: `Redis unreachable for ${ms} ms at ${ctx.story.elapsed()} ms`,
  });
  ctx.story.add(
    'inject',
    `Redis unreachable for ${ms} ms (connections cut, new ones refused) during a delivery, every process alive`,
  );
  try {
    await ctx.world.redisProxy.outage(ms);
  } finally {
    for (const member of held) member.busy = false;
  }
  ctx.story.add('saw', `Redis reachable again; active now: ${await activeWork(ctx.world)}`);
}
