import { configSchema } from '../../src/config/schema.js';
import { type Stack, startStack, waitFor } from '../../test/e2e/harness.js';
import { snapshotsAtCurrent, startDaemons, stopDaemons } from './daemons.js';

/** Caps lifted: the budget and the sandbox allow far more than the pipeline can ask. */
export const LIFTED = { perMinute: 1_000_000, perDay: 1_000_000_000 };

/** A change to a bench stack's config before it is written (a case's own settings). */
export type ConfigPatch = (config: Record<string, unknown>) => Record<string, unknown>;

/** A stack and its watched issuers, in the sandbox's order. */
export interface BenchStack {
  stack: Stack;
  ids: string[];
}

/** The Slack channel's `ratePerSecond` when the config leaves it out, read from the schema (its one home). */
export function defaultSlackRate(): number {
  const config = configSchema.parse({
    upstream: { baseUrl: 'https://sandbox.invalid', apiKey: 'bench' },
    channels: [{ name: 'desk', kind: 'slack', webhookUrl: 'https://hooks.slack.com/services/T/B/bench' }],
  });
  const channel = config.channels[0];
  if (channel?.kind !== 'slack') throw new Error('the schema parsed no Slack channel');
  return channel.ratePerSecond;
}

/**
 * `issuers` watched issuers, caps lifted, gate every 1 s, poll.concurrency 4, and one Slack channel `desk`
 * with `slack` merged over its bench settings (leave `ratePerSecond` out to keep the schema's default).
 */
export async function openBenchStack(
  issuers: number,
  slack: Record<string, unknown>,
  patch: ConfigPatch = (config) => config,
): Promise<BenchStack> {
  const stack = await startStack({
    issuers,
    seed: 11,
    channels: ['slack'],
    sandbox: { limits: LIFTED },
    config: { budget: { ...LIFTED, reserve: 10 }, poll: { gateInterval: '1s', concurrency: 4 } },
  });
  stack.writeConfig({
    ...patch(stack.configObject),
    channels: [
      { name: 'desk', kind: 'slack', webhookUrl: stack.slack.url, backoff: '200ms', attempts: 6, ...slack },
    ],
  });
  return { stack, ids: stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id) };
}

/** Runs `fn` while `count` shortwatch processes run and every baseline snapshot is taken; stops them after. */
export async function withDaemons<T>(bench: BenchStack, count: number, fn: () => Promise<T>): Promise<T> {
  const { stack, ids } = bench;
  const daemons = await startDaemons(stack.redis.redis, stack.prefix, stack.configPath, count);
  try {
    await waitFor(
      'baseline snapshots',
      async () =>
        (await snapshotsAtCurrent(stack.redis.redis, stack.prefix, stack.sandbox.scenario, ids)) ===
        ids.length,
      120_000,
      200,
    );
    return await fn();
  } finally {
    await stopDaemons(daemons);
  }
}
