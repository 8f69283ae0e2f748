import type { App } from '../app.js';
import { displayText, formatPercent } from '../channels/format.js';
import { normaliseName } from '../jobs/watchlist.js';
import { type IssuerSeen, registerIssuersSeen, upstreamIssuerSeen } from '../lookup/as-of.js';
import { issuerSources, lookupIssuer } from '../lookup/issuer-lookup.js';
import { parseInstant } from '../record/time-range.js';
import { RegisterStore } from '../state/register-store.js';
import { CliError, EXIT } from './exit.js';
import { renderTable } from './table.js';

/** `--as-of` as epoch ms: a date-time, a date (its end: what had been seen by that day's close), or a duration ago. */
export function asOfMs(text: string, nowMs: number): number {
  const at = parseInstant(text, nowMs, true);
  if (at === undefined)
    throw new CliError(
      `--as-of "${text}" is not a date, a date-time or a duration (e.g. 2026-11-01, 2026-11-01T09:00Z, 2d)`,
      EXIT.usage,
    );
  return at;
}

/** The stores an as-of answer reads, from the app. */
function asOfStores(app: App) {
  return {
    snapshots: app.ctx.snapshots,
    registers: new RegisterStore(app.redis, app.ctx.prefix),
    eventLog: app.ctx.eventLog,
    eventsKept: app.settings.config.poll.eventsKept,
  };
}

/**
 * The issuers an argument names as shortwatch had seen them at `atMs`, from its own state (snapshots and
 * the event log; no upstream request): the upstream issuer it resolves to, and every register's issuer
 * whose key is it or whose name contains it.
 */
async function issuersSeen(app: App, issuer: string, atMs: number): Promise<IssuerSeen[]> {
  const stores = asOfStores(app);
  const found: IssuerSeen[] = [];
  if (app.settings.config.upstream !== undefined) {
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
  const matches = (i: { key: string; name: string }) =>
    i.key.toLowerCase() === needle || normaliseName(i.name).includes(needle);
  found.push(...(await registerIssuersSeen(stores, names, matches, atMs)));
  if (found.length === 0)
    throw new CliError(`shortwatch has stored no issuer matching "${issuer}"`, EXIT.usage);
  return found;
}

/** `shortwatch positions ISSUER --as-of T`: each issuer's positions as shortwatch had seen them at T. */
export async function printPositionsAsOf(
  app: App,
  issuer: string,
  atMs: number,
  out: (text: string) => void,
): Promise<void> {
  const at = new Date(atMs).toISOString();
  for (const seen of await issuersSeen(app, issuer, atMs)) {
    const where = seen.source === undefined ? 'the upstream API' : `register ${seen.source}`;
    out(displayText(`${seen.name} (${seen.key}) in ${where}, as seen at ${at}`));
    if (!seen.seen) {
      out('not read yet at that time\n');
      continue;
    }
    const rows = seen.positions.map((p) => [
      p.holder,
      formatPercent(p.value),
      p.date,
      p.firstSeen === undefined ? 'before the log' : p.firstSeen.slice(0, 19).replace('T', ' '),
    ]);
    out(renderTable(['HOLDER', 'VALUE', 'DATE', 'FIRST SEEN'], rows));
    const sum = seen.positions.reduce((total, p) => total + p.value, 0);
    out(`\n${rows.length === 1 ? '1 holder' : `${rows.length} holders`}, named ${formatPercent(sum)}`);
    if (!seen.complete)
      out(
        'warning: the event log no longer reaches back to that time for this issuer: the answer may be wrong',
      );
    out('');
  }
}
