import { ALERT_DEFAULTS } from "../config/schema/alerts.js";
import { HolderIdentities } from "../positions/holder-identity.js";
import { matchFilter } from "./filter.js";
import { isMuted } from "./mutes.js";
import { quietUntil } from "./quiet-hours.js";
const DEFAULT_ROUTE_OPTIONS = {
  confirmedCloses: ALERT_DEFAULTS.confirmedCloses,
  opsChannel: void 0
};
function routeOptionsOf(config) {
  return {
    confirmedCloses: config.alerts.confirmedCloses,
    opsChannel: config.ops.channel,
    holders: new HolderIdentities(config.holders.aliases)
  };
}
const OPS_CHANNEL_SKIP = "the ops channel (ops.channel): notices and the heartbeat only, no events";
function dispositionOf(channel, now) {
  if (channel.mode === "digest") return { action: "stage", digest: channel.name };
  const until = channel.quietHours ? quietUntil(channel.quietHours, now) : null;
  if (!until) return { action: "send" };
  const foldInto = channel.quietHours?.foldInto;
  return foldInto ? { action: "stage", digest: foldInto } : { action: "defer", until };
}
function decide(event, channel, mutes, now, options) {
  if (channel.name === options.opsChannel) return { outcome: "skip", reason: OPS_CHANNEL_SKIP };
  const filtered = matchFilter(event, channel.filter, options.holders);
  if (!filtered.pass) return { outcome: "skip", reason: filtered.reason };
  const mute = isMuted(event, channel, mutes, options.holders);
  if (mute) return { outcome: "muted", mute };
  const disposition = dispositionOf(channel, now);
  if (channel.everyChange) return { outcome: "route", disposition, held: false };
  if (event.story?.kind === "below-confirmed" && toldFall(event.story.toldTo, channel.name)) {
    const quietLine = disposition.action === "stage" && options.confirmedCloses === "digest";
    if (!quietLine) {
      return {
        outcome: "skip",
        reason: `already told: fell below the 0.5% disclosure threshold (${event.story.fellBelowOn}); its leaving the register is in the event log${disposition.action === "stage" ? " (alerts.confirmedCloses: silent)" : ""}`
      };
    }
  }
  const hold = event.hold;
  if (hold && disposition.action !== "stage") {
    const end = new Date(hold.until);
    const quietAtEnd = channel.quietHours ? quietUntil(channel.quietHours, end) : null;
    const candidates = [end, quietAtEnd, disposition.action === "defer" ? disposition.until : null];
    const until = new Date(Math.max(...candidates.map((date) => date?.getTime() ?? 0)));
    return { outcome: "route", disposition: { action: "defer", until }, held: true };
  }
  return { outcome: "route", disposition, held: false };
}
function toldFall(toldTo, channel) {
  return toldTo?.includes(channel) ?? false;
}
function routeEvents(events, channels, mutes, now, options = DEFAULT_ROUTE_OPTIONS) {
  const groups = [];
  const suppressed = [];
  const verdicts = events.map(() => []);
  for (const channel of channels) {
    const byKey = /* @__PURE__ */ new Map();
    for (const [index, event] of events.entries()) {
      const decision = decide(event, channel, mutes, now, options);
      verdicts[index]?.push(verdictOf(channel, decision));
      if (decision.outcome === "skip") continue;
      if (decision.outcome === "muted") {
        suppressed.push({ channel: channel.name, eventId: event.id, mute: decision.mute });
        continue;
      }
      const { disposition } = decision;
      const key = `${event.issuer.id}|${dispositionKey(disposition)}`;
      let group = byKey.get(key);
      if (!group) {
        group = { channel: channel.name, issuer: event.issuer, events: [], disposition };
        byKey.set(key, group);
        groups.push(group);
      }
      group.events.push(event);
    }
  }
  return { groups, suppressed, verdicts };
}
function dispositionKey(disposition) {
  switch (disposition.action) {
    case "send":
      return "send";
    case "defer":
      return `defer:${disposition.until.getTime()}`;
    case "stage":
      return `stage:${disposition.digest}`;
  }
}
function describeMute(mute) {
  const where = mute.channel === void 0 ? "all channels" : `channel ${mute.channel}`;
  const why = mute.reason ? ` (${mute.reason})` : "";
  return `${mute.scope} "${mute.target}" muted on ${where} until ${new Date(mute.until).toISOString()}${why}`;
}
function describeDisposition(channel, disposition, held) {
  switch (disposition.action) {
    case "send":
      return { channel: channel.name, verdict: "send", reason: "passes filter; sent now" };
    case "defer":
      return {
        channel: channel.name,
        verdict: "defer",
        reason: held ? `passes filter; the holder is flapping around 0.5%: held until ${disposition.until.toISOString()} and sent with its other changes in one message` : `passes filter; quiet hours, sent at ${disposition.until.toISOString()}`
      };
    case "stage":
      return {
        channel: channel.name,
        verdict: "stage",
        reason: disposition.digest === channel.name ? "passes filter; staged for the next digest" : `passes filter; quiet hours, folded into digest ${disposition.digest}`
      };
  }
}
function explainRoute(event, channels, mutes, now, options = DEFAULT_ROUTE_OPTIONS) {
  return channels.map((channel) => verdictOf(channel, decide(event, channel, mutes, now, options)));
}
function verdictOf(channel, decision) {
  switch (decision.outcome) {
    case "skip":
      return { channel: channel.name, verdict: "skip", reason: decision.reason };
    case "muted":
      return { channel: channel.name, verdict: "muted", reason: describeMute(decision.mute) };
    case "route":
      return describeDisposition(channel, decision.disposition, decision.held);
  }
}
export {
  OPS_CHANNEL_SKIP,
  dispositionOf,
  explainRoute,
  routeEvents,
  routeOptionsOf
};
