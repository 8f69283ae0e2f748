import { displayText } from "../../channels/format.js";
import { parseDuration } from "../../config/duration.js";
import { checkHolderName, holderStores } from "../../lookup/holder-lookup.js";
import { issuerSources, lookupIssuer } from "../../lookup/issuer-lookup.js";
import { issuerMatches, muteKey } from "../../routing/index.js";
import { withApp } from "../context.js";
import { CliError, EXIT, isCliError } from "../exit.js";
import { renderTable } from "../table.js";
async function muteCommand(ctx, scope, target, options) {
  const forMs = parseDuration(options.for);
  if (scope !== "holder" && scope !== "issuer") throw new CliError("mute what? holder or issuer", EXIT.usage);
  if (!forMs) throw new CliError(`--for: "${options.for}" is not a duration (e.g. 7d, 12h)`, EXIT.usage);
  if (options.channel && !ctx.config.channels.some((c) => c.name === options.channel)) {
    throw new CliError(`no channel named "${options.channel}"`, EXIT.usage);
  }
  await withApp(ctx, async (app) => {
    let stored = target;
    if (scope === "issuer") {
      const issuer = lookupIssuer(
        target,
        await issuerSources(app.ctx.directory, app.settings.config.watchlist)
      );
      if (issuer.via === "label") stored = issuer.id;
    } else {
      const note = await checkHolderName(holderStores(app.ctx), app.settings.config, target);
      if (note !== void 0) ctx.out(`Note: ${note}.`);
    }
    const mute = await app.ctx.mutes.add({
      scope,
      target: stored,
      channel: options.channel,
      reason: options.reason,
      digests: options.digests ?? false,
      forMs
    });
    ctx.out(
      `Muted ${scope} "${displayText(stored)}" on ${mute.channel ?? "every channel"} until ${new Date(mute.until).toISOString()}${mute.digests ? " (digests too)" : " (digests still receive it)"}.`
    );
  });
}
async function unmuteCommand(ctx, scope, target, options) {
  if (scope !== "holder" && scope !== "issuer")
    throw new CliError("unmute what? holder or issuer", EXIT.usage);
  await withApp(ctx, async (app) => {
    const related = await mutesOf(app, scope, target);
    const chosen = related.filter((mute) => mute.channel === options.channel);
    for (const mute of chosen) await app.ctx.mutes.remove(mute.scope, mute.target, mute.channel);
    const where = options.channel ? `on ${options.channel}` : "on every channel";
    if (chosen.length > 0) {
      ctx.out(`Unmuted ${scope} "${displayText(target)}" ${where}.`);
      return;
    }
    const others = related.map(
      (m) => `on ${m.channel ?? "every channel"} until ${new Date(m.until).toISOString()}: shortwatch unmute ${scope} "${displayText(m.target)}"${m.channel ? ` --channel ${m.channel}` : ""}`
    );
    throw new CliError(
      others.length > 0 ? `no mute of ${scope} "${displayText(target)}" ${where}; its mutes in force are:
  ${others.join("\n  ")}` : `no mute of ${scope} "${displayText(target)}" is in force (shortwatch mutes lists them)`,
      EXIT.usage
    );
  });
}
async function mutesOf(app, scope, target) {
  const mutes = (await app.ctx.mutes.list()).filter((mute) => mute.scope === scope);
  const key = muteKey(scope, target);
  if (scope === "holder") return mutes.filter((mute) => mute.key === key);
  let issuer;
  try {
    issuer = lookupIssuer(target, await issuerSources(app.ctx.directory, app.settings.config.watchlist));
  } catch (error) {
    if (!isCliError(error)) throw error;
  }
  return mutes.filter(
    (mute) => mute.key === key || issuer !== void 0 && issuerMatches(mute.target, issuer)
  );
}
async function mutesCommand(ctx) {
  await withApp(ctx, async (app) => {
    const mutes = await app.ctx.mutes.list();
    ctx.out(
      renderTable(
        ["SCOPE", "TARGET", "CHANNEL", "UNTIL", "DIGESTS", "REASON"],
        mutes.map((m) => [
          m.scope,
          m.target,
          m.channel ?? "*",
          new Date(m.until).toISOString(),
          m.digests ? "muted" : "kept",
          m.reason ?? ""
        ])
      )
    );
    const counts = await app.ctx.mutes.suppressedCounts();
    const summary = Object.entries(counts).map(([channel, n]) => `${channel}: ${n}`).join(", ");
    ctx.out(`
Suppressed events so far: ${summary || "none"}`);
  });
}
export {
  muteCommand,
  mutesCommand,
  unmuteCommand
};
