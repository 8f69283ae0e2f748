import { displayText } from "../../channels/format.js";
import { summarise } from "../../channels/message-summary.js";
import { lookupHolder } from "../../lookup/holder-lookup.js";
import { issuerSources, isWatched, lookupIssuer } from "../../lookup/issuer-lookup.js";
import { EVENT_KINDS } from "../../positions/index.js";
import { explainRoute, routeOptionsOf, syntheticEvent } from "../../routing/index.js";
import { withApp } from "../context.js";
import { CliError, EXIT } from "../exit.js";
import { parsePercent } from "../number-options.js";
import { renderTable } from "../table.js";
async function deliveriesCommand(ctx, options) {
  await withApp(ctx, async (app) => {
    const rows = [];
    const now = app.ctx.now().getTime();
    for (const name of await channelNames(app)) {
      for (const parked of await app.ctx.outbox.parked(name)) {
        const { deliveryId, attempts, message, lastError } = parked;
        rows.push([name, deliveryId, "parked", attempts, summarise(message), lastError ?? ""]);
      }
      if (options.failed) continue;
      const inflight = await app.ctx.outbox.inflight(name);
      if (inflight) {
        const { deliveryId, attempts, message, lastError } = inflight;
        rows.push([name, deliveryId, "sending", attempts, summarise(message), lastError ?? ""]);
      }
      const depth = await app.ctx.outbox.depth(name, now);
      if (depth.ready > 0) rows.push([name, "-", "ready", 0, `${depth.ready} items`, ""]);
      const held = depth.waiting - depth.ready;
      if (held > 0) rows.push([name, "-", "held", 0, `${held} items`, ""]);
    }
    ctx.out(renderTable(["CHANNEL", "DELIVERY", "STATE", "ATTEMPTS", "MESSAGE", "LAST ERROR"], rows));
    ctx.out(
      `
${rows.length} rows. Send parked messages again with: shortwatch deliveries retry <delivery>|--all`
    );
  });
}
async function channelNames(app) {
  const configured = app.settings.config.channels.map((c) => c.name);
  const removed = (await app.ctx.channels.names()).filter((name) => !configured.includes(name));
  return [...configured, ...removed];
}
async function retryCommand(ctx, deliveryId, options) {
  if (!deliveryId && !options.all) throw new CliError("name a delivery id or pass --all", EXIT.usage);
  await withApp(ctx, async (app) => {
    const configured = new Set(app.settings.config.channels.map((c) => c.name));
    if (options.channel && !configured.has(options.channel)) {
      const removed = (await channelNames(app)).includes(options.channel);
      throw new CliError(
        removed ? `channel "${options.channel}" is no longer in the config: add it back (and reload) before retrying its parked messages` : `no channel named "${options.channel}"`,
        EXIT.usage
      );
    }
    let retried = 0;
    for (const channel of app.settings.config.channels) {
      if (options.channel && channel.name !== options.channel) continue;
      const retriedHere = await app.ctx.outbox.requeue(channel.name, deliveryId ? [deliveryId] : void 0);
      retried += retriedHere;
      if (retriedHere > 0 && (await app.ctx.outbox.parked(channel.name)).length === 0)
        await app.ctx.notices.clear(`channel-parked-${channel.name}`, "Parked deliveries were retried.");
    }
    if (deliveryId && retried === 0) throw new CliError(`no parked delivery with id ${deliveryId}`);
    ctx.out(`${retried} deliveries queued again; a running daemon sends them (same delivery ids).`);
  });
}
async function testNotifyCommand(ctx, name) {
  const channel = ctx.config.channels.find((c) => c.name === name);
  if (!channel)
    throw new CliError(
      `no channel named "${name}" (have: ${ctx.config.channels.map((c) => c.name).join(", ")})`,
      EXIT.usage
    );
  await withApp(ctx, async (app) => {
    const sender = app.settings.senders.get(name);
    if (!sender) throw new CliError(`channel "${name}" has no sender`);
    const sentAt = app.ctx.now().toISOString();
    await sender.send({ type: "test", channel: name, sentAt });
    ctx.out(`Sent a test message to ${name} (${channel.kind}).`);
  });
}
async function routeCommand(ctx, options) {
  const kind = EVENT_KINDS.find((k) => k === options.kind);
  if (!kind) throw new CliError(`--kind must be one of ${EVENT_KINDS.join(", ")}`, EXIT.usage);
  const value = parsePercent(options.value, "--value");
  const previous = options.previous === void 0 ? void 0 : parsePercent(options.previous, "--previous");
  checkDirection(kind, value, previous);
  await withApp(ctx, async (app) => {
    const now = app.ctx.now();
    const sources = await issuerSources(app.ctx.directory, app.settings.config.watchlist);
    const issuer = lookupIssuer(options.issuer, sources);
    const channels = app.settings.config.channels;
    if (!isWatched(issuer, sources)) {
      const why = `${displayText(issuer.name)} (${displayText(issuer.id)}) is not on the watchlist: never polled, no event`;
      ctx.out(
        renderTable(
          ["CHANNEL", "VERDICT", "WHY"],
          channels.map((c) => [c.name, "skip", why])
        )
      );
      return;
    }
    const holder = await holderOf(app, issuer.id, options.holder);
    if (holder !== options.holder) ctx.out(`Holder "${options.holder}" read as ${displayText(holder)}.`);
    const event = syntheticEvent({
      issuer: { id: issuer.id, name: issuer.name },
      holder,
      kind,
      value,
      previous,
      thresholds: app.settings.config.poll.thresholds,
      now
    });
    const verdicts = explainRoute(
      event,
      channels,
      await app.ctx.mutes.list(),
      now,
      routeOptionsOf(app.settings.config)
    );
    ctx.out(
      renderTable(
        ["CHANNEL", "VERDICT", "WHY"],
        verdicts.map((v) => [v.channel, v.verdict, v.reason])
      )
    );
  });
}
async function holderOf(app, issuerId, typed) {
  const snapshot = await app.ctx.snapshots.get(issuerId);
  const logged = await app.ctx.eventLog.recent({ issuerId, limit: app.settings.config.poll.eventsKept });
  const known = [
    ...Object.values(snapshot?.positions ?? {}).map((p) => p.holder),
    ...logged.map((e) => e.holder)
  ];
  const found = lookupHolder(typed, known);
  if (found.kind === "ambiguous")
    throw new CliError(
      `--holder "${typed}" matches ${found.names.map(displayText).join(", ")}: name one`,
      EXIT.usage
    );
  return found.name;
}
function checkDirection(kind, value, previous) {
  if (previous === void 0) return;
  if (kind === "increased" && !(previous < value))
    throw new CliError("--kind increased needs --previous below --value", EXIT.usage);
  if (kind === "decreased" && !(previous > value))
    throw new CliError("--kind decreased needs --previous above --value", EXIT.usage);
}
export {
  deliveriesCommand,
  retryCommand,
  routeCommand,
  testNotifyCommand
};
