import type { ChannelConfig, Config } from '../../config/schema.js';
import { describeFilter } from '../../routing/describe-filter.js';
import { noticeChannels } from '../../state/notice-routing.js';

/**
 * What a channel will get, in words, as `check` tells it: the ops channel notices and the heartbeat only
 * (routing skips it for every event); any other its filter's events, at once or in a digest, and the
 * critical notices when no ops channel is named (state/notice-routing.ts).
 */
export function describeChannelDuty(channel: ChannelConfig, config: Config): string {
  if (channel.name === config.ops.channel) {
    const heartbeat = config.ops.heartbeat ? ` and the heartbeat ("${config.ops.heartbeat}" UTC)` : '';
    return `operator notices${heartbeat} only, no events (ops.channel)`;
  }
  const events = describeFilter(channel.filter);
  const how =
    channel.mode === 'digest'
      ? `a digest on "${channel.schedule ?? '?'}" (${channel.timezone}) of ${events}`
      : `${events}, sent at once${channel.quietHours ? ', held in quiet hours' : ''}`;
  const critical = noticeChannels(config, 'critical').includes(channel.name);
  return critical ? `${how}; critical notices too (no ops.channel)` : how;
}
