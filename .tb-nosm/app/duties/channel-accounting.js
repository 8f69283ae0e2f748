import { retireChannel } from "../../delivery/retire-channel.js";
import { BEAT_MS } from "./beat.js";
function channelStep(configured, removedNoticeUp) {
  if (!configured) return "retire";
  return removedNoticeUp ? "clear-removed-notice" : "nothing";
}
function afterRetiring(retired, parked) {
  if (retired === "busy") return "later";
  return parked === 0 && retired.staged === 0 ? "forget" : "tell";
}
const noticeOf = (name) => `channel-removed-${name}`;
async function accountForChannels(parts, configured) {
  await parts.channels.register(configured);
  const wanted = new Set(configured.map((c) => c.name));
  const active = new Set((await parts.notices.list()).map((n) => n.key));
  for (const name of await parts.channels.names()) {
    const step = channelStep(wanted.has(name), active.has(noticeOf(name)));
    if (step === "clear-removed-notice")
      await parts.notices.clear(noticeOf(name), `Channel ${name} is configured again.`);
    if (step === "retire") await retire(parts, name);
  }
}
async function retire(parts, name) {
  const retired = await retireChannel(parts, name);
  const parked = retired === "busy" ? 0 : (await parts.outbox.parked(name)).length;
  const next = afterRetiring(retired, parked);
  if (next === "forget") {
    await parts.notices.clear(noticeOf(name), `Nothing is left queued for ${name}.`);
    await parts.channels.forget(name);
  }
  if (next === "tell" && retired !== "busy") {
    await parts.notices.raise(
      noticeOf(name),
      "warning",
      `Channel ${name} was removed with messages still queued`,
      `${parked} messages for ${name} are parked (\`shortwatch deliveries --failed\`) and ${retired.staged} digest events stay staged. Add the channel back and run \`shortwatch deliveries retry --all --channel ${name}\` to send them.`
    );
  }
}
function channelAccounting(deps) {
  return {
    name: "channel-accounting",
    periodMs: BEAT_MS,
    reads: "`<t>:channels`, active notices, a removed channel's outbox",
    writes: "`<t>:channels`; a removed channel's outbox parked; the `channel-removed-<ch>` notice",
    failure: "could not account for removed channels",
    run: () => accountForChannels(deps.parts, deps.channels())
  };
}
export {
  accountForChannels,
  afterRetiring,
  channelAccounting,
  channelStep
};
