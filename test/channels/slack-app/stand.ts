import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createSlackAppSender } from '../../../src/channels/slack-app/index.js';
import type { ChannelMemory, ChannelSender } from '../../../src/channels/types.js';
import { channelSchema } from '../../../src/config/schema.js';
import { RedisChannelMemory } from '../../../src/state/channel-memory.js';
import { createTestRedis, type TestRedis } from '../../helpers/redis.js';
import { SlackWebApiStandIn } from '../../helpers/slack-web-api-stand-in.js';

/** One file's Slack Web API stand-in, a Redis of each test's own, and the senders a test opened. */
export interface SlackAppStand {
  slack: SlackWebApiStandIn;
  apiUrl: string;
  redis: TestRedis;
  /** Closed after each test. */
  senders: ChannelSender[];
  /**
   * A sender of channel `desk` on the stand-in (closed after the test): `config` adds to its settings,
   * `memory` replaces the test's Redis memory, `sleep` records the waits it is asked for (none by default).
   */
  sender(options?: SenderOptions): ChannelSender;
}

export interface SenderOptions {
  config?: Record<string, unknown>;
  memory?: ChannelMemory;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The hooks every slack-app sender test needs: the stand-in for the file (one channel, one token), a
 * fresh prefix per test, and after each the senders closed, the stand-in reset (and `reset` for what a
 * file changes besides) and the test's keys deleted. Read the fields inside tests: they are set by hooks.
 */
export function useSlackAppStand(
  token: string,
  channel: string,
  label: string,
  now: () => Date,
  reset: (slack: SlackWebApiStandIn) => void = () => undefined,
): SlackAppStand {
  const stand = { senders: [] as ChannelSender[] } as SlackAppStand;
  stand.sender = (options = {}) => {
    const config = channelSchema.parse({
      name: 'desk',
      kind: 'slack-app',
      token,
      channel,
      apiUrl: stand.apiUrl,
      ...options.config,
    });
    if (config.kind !== 'slack-app') throw new Error('expected a slack-app config');
    const memory =
      options.memory ?? new RedisChannelMemory(stand.redis.redis, stand.redis.prefix, config.name);
    const sleep = options.sleep ?? (async () => undefined);
    const created = createSlackAppSender(config, { now, memory, sleep });
    stand.senders.push(created);
    return created;
  };
  beforeAll(async () => {
    stand.slack = new SlackWebApiStandIn(token, [channel]);
    stand.apiUrl = await stand.slack.start();
  });
  afterAll(async () => stand.slack.stop());
  beforeEach(async () => {
    stand.redis = await createTestRedis(label);
  });
  afterEach(async () => {
    for (const sender of stand.senders.splice(0)) await sender.close();
    stand.slack.reset();
    reset(stand.slack);
    await stand.redis.cleanup();
  });
  return stand;
}
