import { formatPercent } from "../channels/format.js";
import { isWatched } from "../jobs/registers/register-diff.js";
import { normaliseName } from "../jobs/watchlist.js";
import { RegisterStore } from "../state/register-store.js";
import { CliError } from "./exit.js";
async function registerPositions(app, issuer) {
  const store = new RegisterStore(app.redis, app.ctx.prefix);
  const needle = normaliseName(issuer);
  const found = [];
  for (const source of app.settings.config.sources) {
    const kept = await store.lastSnapshot(source.name);
    for (const entry of kept?.snapshot.issuers ?? []) {
      const named = entry.key.toLowerCase() === needle || normaliseName(entry.name).includes(needle);
      if (!named || !isWatched(source.watchlist, entry)) continue;
      const rows = [...entry.positions].sort((a, b) => b.percent - a.percent).map((p) => [p.holder, formatPercent(p.percent), p.date]);
      const sum = entry.positions.reduce((total, p) => total + p.percent, 0);
      const aggregate = entry.aggregate ? `; aggregate ${formatPercent(entry.aggregate.percent)} (positions from ${entry.aggregate.thresholdPercent}%) on ${entry.aggregate.date}` : "";
      found.push({
        title: `${entry.name} (${entry.key}) in register ${source.name}, read ${kept?.at ?? "never"}`,
        rows,
        summary: `${rows.length === 1 ? "1 holder" : `${rows.length} holders`}, named ${formatPercent(sum)}${aggregate}`
      });
    }
  }
  if (found.length === 0)
    throw new CliError(`no register source's last read lists a watched issuer matching "${issuer}"`, 2);
  return found;
}
export {
  registerPositions
};
