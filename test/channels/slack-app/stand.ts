import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ChannelSender } from '../../../src/channels/types.js';
import { createTestRedis, type TestRedis } from '../../helpers/redis.js';
import { SlackWebApiStandIn } from '../../helpers/slack-web-api-stand-in.js';

/** One file's Slack Web API stand-in, a Redis of each test's own, and the senders a test opened. */
export interface SlackAppStand {
  slack: SlackWebApiStandIn;
  apiUrl: string;
  redis: TestRedis;
  /** Closed after each test. */
  senders: ChannelSender[];
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
  reset: (slack: SlackWebApiStandIn) => void = () => undefined,
): SlackAppStand {
  const stand = { senders: [] as ChannelSender[] } as SlackAppStand;
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
