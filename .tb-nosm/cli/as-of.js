import { displayText, formatPercent } from "../channels/format.js";
import { normaliseName } from "../jobs/watchlist.js";
import { registerIssuersSeen, upstreamIssuerSeen } from "../lookup/as-of.js";
import { issuerSources, lookupIssuer } from "../lookup/issuer-lookup.js";
import { parseInstant } from "../record/time-range.js";
import { RegisterStore } from "../state/register-store.js";
import { CliError, EXIT } from "./exit.js";
import { renderTable } from "./table.js";
function asOfMs(text, nowMs) {
  const at = parseInstant(text, nowMs, true);
  if (at === void 0)
    throw new CliError(
      `--as-of "${text}" is not a date, a date-time or a duration (e.g. 2026-11-01, 2026-11-01T09:00Z, 2d)`,
      EXIT.usage
    );
  return at;
}
function asOfStores(app) {
  return {
    snapshots: app.ctx.snapshots,
    registers: new RegisterStore(app.redis, app.ctx.prefix),
    eventLog: app.ctx.eventLog,
    eventsKept: app.settings.config.poll.eventsKept
  };
}
async function issuersSeen(app, issuer, atMs) {
  const stores = asOfStores(app);
  const found = [];
  if (app.settings.config.upstream !== void 0) {
    const sources = await issuerSources(app.ctx.directory, app.settings.config.watchlist);
    const id = (() => {
      try {
        return lookupIssuer(issuer, sources, { partial: true }).id;
      } catch {
        return issuer.trim();
      }
    })();
    const seen = await upstreamIssuerSeen(stores, id, atMs);
    if (seen !== null) found.push(seen);
  }
  const needle = normaliseName(issuer);
  const names = app.settings.config.sources.map((s) => s.name);
  const matches = (i) => i.key.toLowerCase() === needle || normaliseName(i.name).includes(needle);
  found.push(...await registerIssuersSeen(stores, names, matches, atMs));
  if (found.length === 0)
    throw new CliError(`shortwatch has stored no issuer matching "${issuer}"`, EXIT.usage);
  return found;
}
async function printPositionsAsOf(app, issuer, atMs, out) {
  const at = new Date(atMs).toISOString();
  for (const seen of await issuersSeen(app, issuer, atMs)) {
    const where = seen.source === void 0 ? "the upstream API" : `register ${seen.source}`;
    out(displayText(`${seen.name} (${seen.key}) in ${where}, as seen at ${at}`));
    if (!seen.seen) {
      out("not read yet at that time\n");
      continue;
    }
    const rows = seen.positions.map((p) => [
      p.holder,
      formatPercent(p.value),
      p.date,
      p.firstSeen === void 0 ? "before the log" : p.firstSeen.slice(0, 19).replace("T", " ")
    ]);
    out(renderTable(["HOLDER", "VALUE", "DATE", "FIRST SEEN"], rows));
    const sum = seen.positions.reduce((total, p) => total + p.value, 0);
    out(`
${rows.length === 1 ? "1 holder" : `${rows.length} holders`}, named ${formatPercent(sum)}`);
    if (!seen.complete)
      out(
        "warning: the event log no longer reaches back to that time for this issuer: the answer may be wrong"
      );
    out("");
  }
}
export {
  asOfMs,
  printPositionsAsOf
};
