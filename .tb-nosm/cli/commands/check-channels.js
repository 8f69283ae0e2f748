import { describeFilter } from "../../routing/describe-filter.js";
import { noticeChannels } from "../../state/notice-routing.js";
function describeChannelDuty(channel, config) {
  if (channel.name === config.ops.channel) {
    const heartbeat = config.ops.heartbeat ? ` and the heartbeat ("${config.ops.heartbeat}" UTC)` : "";
    return `operator notices${heartbeat} only, no events (ops.channel)`;
  }
  const events = describeFilter(channel.filter);
  const how = channel.mode === "digest" ? `a digest on "${channel.schedule ?? "?"}" (${channel.timezone}) of ${events}` : `${events}, sent at once${channel.quietHours ? ", held in quiet hours" : ""}`;
  const critical = noticeChannels(config, "critical").includes(channel.name);
  return critical ? `${how}; critical notices too (no ops.channel)` : how;
}
export {
  describeChannelDuty
};
