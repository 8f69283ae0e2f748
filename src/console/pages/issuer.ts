import type { App } from '../../app.js';
import type { BudgetUsage } from '../../budget/index.js';
import type { PositionEvent, Snapshot } from '../../positions/types.js';
import { isSnapshotCorruptError } from '../../state/snapshot-corrupt-error.js';
import type { IssuerPosition } from '../../upstream/schemas.js';
import { chartLegend, stepChart } from '../chart/step-chart.js';
import { activeOf, dayOf, issuerSeries, lastPoint, type Series } from '../data/holder-series.js';
import { registerStore } from '../data/source-views.js';
import { displayText, formatCount, formatPercent, formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { type PageContext, type PageResult, page } from '../page.js';
import { paths } from '../paths.js';
import { deltaText, fromText, holderCell, kindText, originTags, toText } from './event-cells.js';

/** Everything the issuer page shows. */
export interface IssuerData {
  id: string;
  name: string;
  snapshot: Snapshot | null;
  /** Set when the stored snapshot could not be read. */
  snapshotProblem: string | null;
  /** The issuer's logged events, newest first. */
  events: readonly PositionEvent[];
  /** The `status=all` rows, when the user asked for them; a string says why they could not be fetched. */
  history: readonly IssuerPosition[] | string | null;
  /**
   * Requests the console may still spend today: the day's left beyond the reserve CLI commands keep; null
   * without `upstream` (registers only: there is no API to ask for the history).
   */
  dayLeft: number | null;
  nowMs: number;
  /** The register sources whose kept read lists this issuer under its id (an ISIN), or that logged its changes. */
  registers?: readonly string[];
}

/** What the console may spend of a day's budget: never the reserve (see `fetchHistory`). */
export function spendableToday(usage: BudgetUsage): number {
  return Math.max(0, usage.day.left - usage.reserve);
}

const RECENT_EVENTS = 20;

/** Reads one issuer: its snapshot, its event log, and its name from the directory; null when unknown. */
export async function loadIssuer(app: App, id: string): Promise<IssuerData | null> {
  let snapshot: Snapshot | null = null;
  let snapshotProblem: string | null = null;
  try {
    snapshot = await app.ctx.snapshots.get(id);
  } catch (error) {
    if (!isSnapshotCorruptError(error)) throw error;
    snapshotProblem = 'The stored snapshot cannot be read; `shortwatch resume <issuer>` re-baselines it.';
  }
  const { config } = app.settings;
  const events = await app.ctx.eventLog.recent({ issuerId: id, limit: config.poll.eventsKept });
  const directory = (await app.ctx.directory.load())?.issuers ?? [];
  const listed = directory.find((i) => i.svc_issuer_id === id);
  if (!snapshot && !listed && events.length === 0 && !snapshotProblem) return null;
  const dayLeft = config.upstream === undefined ? null : spendableToday(await app.ctx.budget.usage());
  return {
    registers: await registersListing(app, id, events),
    id,
    name: snapshot?.issuerName ?? listed?.name ?? events[0]?.issuer.name ?? id,
    snapshot,
    snapshotProblem,
    events,
    history: null,
    dayLeft,
    nowMs: app.ctx.now().getTime(),
  };
}

/**
 * The register sources that know this issuer id: those whose kept read lists it as a key (the id is an
 * ISIN there) and those whose events the issuer's log holds.
 */
async function registersListing(app: App, id: string, events: readonly PositionEvent[]): Promise<string[]> {
  const store = registerStore(app);
  const listed = await Promise.all(
    app.settings.config.sources.map(async ({ name }) => {
      const kept = await store.lastSnapshot(name);
      const known = kept?.snapshot.issuers.some((i) => i.key === id) || events.some((e) => e.source === name);
      return known ? [name] : [];
    }),
  );
  return listed.flat();
}

function eventRow(e: PositionEvent): SafeHtml {
  return html`<tr><td>${formatTime(e.detectedAt)}</td><td>${holderCell(e)}</td><td>${kindText(e)}${originTags(e)}</td>
<td class="num">${fromText(e)}</td><td class="num">${toText(e)}</td><td class="num">${deltaText(e)}</td></tr>`;
}

function registersPart(data: IssuerData): SafeHtml | '' {
  const names = data.registers ?? [];
  if (names.length === 0) return '';
  return html`<p>In the registers: ${names.map((name, i) => html`${i > 0 ? ', ' : ''}<a href="${paths.sourceIssuer(name, data.id)}">${name}</a>`)} <span class="muted">(aggregates and named holders as each register publishes them; not drawn here)</span></p>`;
}

/** Said in place of the history's button without `upstream`. */
export const NO_UPSTREAM_HISTORY = html`<p class="muted">The full history (status=all) comes from the upstream API, which this deployment does not use (registers only).</p>`;

function historyPart(data: IssuerData, csrf: string): SafeHtml {
  if (data.dayLeft === null) return NO_UPSTREAM_HISTORY;
  if (Array.isArray(data.history))
    return html`<p class="notice">Full history loaded: ${data.history.length} disclosures (status=all), drawn with the event log.</p>`;
  const why = typeof data.history === 'string' ? html`<p class="notice bad">${data.history}</p>` : '';
  return html`${why}<form method="post" action="${paths.issuerHistory(data.id)}"><input type="hidden" name="csrf" value="${csrf}">
<button${data.dayLeft <= 0 ? html` disabled` : ''}>Load the full history (status=all)…</button> <span class="muted">asks first; spends 1 upstream request; ${formatCount(data.dayLeft)} left today beyond the reserve</span></form>`;
}

/** The current holders' table and the positions that left the list: both read from the chart's series. */
function holderTables(series: readonly Series[]): SafeHtml {
  const row = (s: Series, value: number | undefined, date: string) =>
    html`<tr><td><a href="${paths.holder(s.key)}">${displayText(s.label)}</a></td><td class="num">${value === undefined ? '-' : formatPercent(value)}</td><td>${date}</td></tr>`;
  const rows = (list: readonly Series[]) =>
    list.map((s) => {
      const last = lastPoint(s);
      return row(s, last?.v, last ? dayOf(last.t) : '-');
    });
  const held = series.filter((s) => s.current !== null);
  const left = series.filter((s) => s.current === null);
  return html`<h2>Current holders</h2>
${held.length > 0 ? html`<table><thead><tr><th>Holder</th><th class="num">Position</th><th>Disclosed on</th></tr></thead><tbody>${rows(held)}</tbody></table>` : html`<p class="muted">no disclosed short position</p>`}
${left.length > 0 ? html`<h2>Off the list</h2><p class="muted">Below 0.5% (or no longer disclosed) since these last listed values; the chart ends each line there.</p><table><thead><tr><th>Holder</th><th class="num">Last listed</th><th>Disclosed on</th></tr></thead><tbody>${rows(left)}</tbody></table>` : ''}`;
}

/** The issuer page, from its data (pure): chart, legend, holders, recent events. */
export function renderIssuer(data: IssuerData, csrf: string): SafeHtml {
  const active = activeOf(data.snapshot);
  const history = Array.isArray(data.history) ? data.history : undefined;
  // The upstream's holders only: a register's aggregate is not a holder, and its page draws it.
  const events = data.events.filter((e) => e.source === undefined);
  const series = issuerSeries({ events, active, history }, paths.holder)
    // Largest current positions first, then closed ones by their last value.
    .sort((a, b) => (b.current ?? -1) - (a.current ?? -1) || (lastPoint(b)?.v ?? 0) - (lastPoint(a)?.v ?? 0));
  const total = [...active.values()].reduce((sum, p) => sum + p.value, 0);
  return html`<p class="muted">${displayText(data.id)} · ${active.size} holders · total disclosed short ${formatPercent(total)} · last poll ${formatTime(data.snapshot?.polledAt)}</p>
${data.snapshotProblem ? html`<p class="notice bad">${data.snapshotProblem}</p>` : ''}
${registersPart(data)}
<h2>Disclosed positions over time</h2>
${series.length > 0 ? html`${stepChart(series, { now: data.nowMs, title: `Disclosed short positions in ${displayText(data.name)}, by holder` })}${chartLegend(series, formatPercent)}` : html`<p class="muted">Nothing to draw yet: no position has been seen.</p>`}
${historyPart(data, csrf)}
${holderTables(series)}
<h2>Recent changes</h2>
${data.events.length > 0 ? html`<table><thead><tr><th>Detected</th><th>Holder</th><th>Change</th><th class="num">From</th><th class="num">To</th><th class="num">Δ</th></tr></thead><tbody>${data.events.slice(0, RECENT_EVENTS).map(eventRow)}</tbody></table>` : html`<p class="muted">no change logged</p>`}
<p><a href="${paths.events({ issuer: data.id })}">Every logged event of this issuer, with where it was delivered</a></p>`;
}

/** The page for an issuer this deployment does not know. */
export function notFound(id: string): PageResult {
  return page(
    { title: 'No such issuer', section: '/issuers' },
    html`<p>No issuer <code>${id}</code> is known: not in the issuer list, never polled, no event logged.</p>`,
    404,
  );
}

/** GET /issuers/:id. */
export async function issuerPage(ctx: PageContext, id: string): Promise<PageResult> {
  const data = await loadIssuer(ctx.app, id);
  if (!data) return notFound(id);
  return page({ title: displayText(data.name), section: '/issuers' }, renderIssuer(data, ctx.csrf));
}
