import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { DeliveryRecord } from '../../src/state/delivery-record.js';
import { keyRoot } from '../../src/state/keys.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { type Stack, startStack, usePerTest, waitFor } from './harness.js';

// Issue 29: a channel's pause (a 429's Retry-After) and the rate's spacing were written by one host's
// clock and compared with another's. Here the daemon's clock runs an hour ahead of Redis' while another
// process has paused the channel for a few seconds by Redis' clock: the message waits for the pause.

const HOUR_MS = 3_600_000;
const PAUSE_MS = 3_000;

/** Redis' time, epoch ms. */
async function redisNow(stack: Stack): Promise<number> {
  const [seconds = 0, micros = 0] = (await stack.redis.redis.time()).map(Number);
  return seconds * 1000 + Math.floor(micros / 1000);
}

describe('a channel paused by another host', () => {
  const current = usePerTest();

  it('stays paused for a daemon whose clock is an hour ahead: the pause is on Redis clock', async () => {
    const stack = await startStack({ issuers: 3, seed: 21, channels: ['slack'] });
    current.stack = stack;
    const config = parseConfig(stringify(stack.configObject), stack.configPath);
    const app = await App.open(config, {
      logger: silentLogger(),
      now: () => new Date(Date.now() + HOUR_MS),
    });
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor('baselines', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);

    const pausedUntil = (await redisNow(stack)) + PAUSE_MS;
    await app.ctx.outbox.setSendState('desk', { pausedUntil });
    expect(stack.sandbox.scenario.step().length).toBeGreaterThan(0);
    await waitFor('a post', () => stack.slack.delivered().length > 0, 30_000);
    // The record stamps each answer with Redis' time: the first came after the pause, by that clock.
    const record = new DeliveryRecord(stack.redis.redis, keyRoot(stack.prefix));
    const rows = await record.newest(0, Number.MAX_SAFE_INTEGER, 100);
    const first = Math.min(...rows.filter((row) => row.channel === 'desk').map((row) => row.at));
    expect(first).toBeGreaterThanOrEqual(pausedUntil);
  }, 60_000);
});
