import { describeFilter } from "../routing/describe-filter.js";
function describeChannel(channel, opsChannel) {
  const kind = channel.kind === "slack" ? "Slack" : channel.kind;
  const mode = channel.mode === "digest" ? `${kind} digest on "${channel.schedule ?? "?"}" (${channel.timezone})` : kind;
  const gets = channel.name === opsChannel ? "operator notices only" : describeFilter(channel.filter);
  return `${channel.name} (${mode}): ${gets}`;
}
const count = new Intl.NumberFormat("en-US");
const seconds = (ms) => `${Math.round(ms / 100) / 10}s`;
function chaosLines(chaos) {
  if (!chaos) return [];
  return [
    `  chaos     the sandbox misbehaves in turn, from ${seconds(chaos.startAfterMs)} on, ${seconds(chaos.phaseMs)} a phase; lines marked "chaos" say how:`,
    `              ${chaos.modes.join(", ")}`
  ];
}
function bannerLines(info) {
  const redis = info.redisStarted ? `${info.redis} (a redis-server started for the demo)` : info.redis;
  const stop = info.durationMs ? `It stops by itself after ${seconds(info.durationMs)}, or on Ctrl-C.` : "Ctrl-C stops everything and removes the demo keys.";
  return [
    "shortwatch demo: a local simulation; nothing reaches the real service, Slack or a mail server.",
    `  upstream  sandbox at ${info.sandboxUrl}: ${info.issuers} issuers, the data changes every ${seconds(info.stepEveryMs)}`,
    `            caps raised to ${count.format(info.caps.perMinute)}/min and ${count.format(info.caps.perDay)}/day on both sides, so the gate runs every ${seconds(info.gateEveryMs)}`,
    `  slack     stand-in at ${info.slackUrl}`,
    `  smtp      local server at ${info.smtp}`,
    `  redis     ${redis}, keys under prefix ${info.prefix} (removed on exit)`,
    ...info.consoleUrl ? [`  console   ${info.consoleUrl} (the web console: issuers, charts, events, deliveries, mutes)`] : [],
    `  daemon    in this process, with ${info.configFile}; channels:`,
    ...info.channels.map((channel) => `              - ${describeChannel(channel, info.opsChannel)}`),
    ...chaosLines(info.chaos),
    `Look in ${info.out}/: slack/*.json (payloads), email/*.eml + *.html (alerts), digest/*.eml + *.html (digests).`,
    `The first poll is a silent baseline; alerts follow the data's first change. ${stop}`,
    ""
  ];
}
export {
  bannerLines,
  describeChannel
};
