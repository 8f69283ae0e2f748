import type { App } from '../../app.js';
import { seenBy } from '../../positions/as-of.js';
import { HolderIdentities } from '../../positions/holder-identity.js';
import { EVENT_KINDS, holderQueryMatches } from '../../positions/index.js';
import { parseInstant } from '../../record/time-range.js';
import { DeliveryRecord } from '../../state/delivery-record.js';
import type { LoggedEvent } from '../../state/poll-commit.js';
import { GLOBAL_EVENTS_FACTOR } from '../../state/retention.js';
import { HOUR_MS } from '../../time/units.js';
import { outboxState } from '../data/deliveries.js';
import { type EventChannelLine, eventLines, indexOutcomes } from '../data/event-outcomes.js';
import { recordedMessages } from '../data/record-messages.js';
import { formatDelta, formatPercent, formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { type PageContext, type PageResult, page } from '../page.js';
import { deltaText, fromText, holderCell, issuerLink, kindText, originTags, toText } from './event-cells.js';

/** The timeline's filters, as the query string gives them (empty: no filter). */
export interface EventFilter {
  issuer: string;
  holder: string;
  kind: string;
  channel: string;
  /** `API` for the upstream's events, a register source's name for its events; empty: every source. */
  source: string;
  /** `asOf` as typed (a date-time, a date: its end, a duration ago): what shortwatch had seen by then. */
  asOf?: string;
  /** `asOf` as epoch ms; absent when not given or not an instant. */
  asOfMs?: number;
}

/** The source filter's value for the upstream API's events: upper-case, so never a source's name. */
const API_SOURCE = 'API';

/** One event on the timeline with each channel's verdict and outcome. */
export interface TimelineEntry {
  logged: LoggedEvent;
  lines: EventChannelLine[];
}

const SHOWN = 200;
// The record is written on Redis' clock and events on the detecting host's: look an hour further back.
const CLOCK_SLACK_MS = HOUR_MS;
/** Record rows a page view reads at most (newest first), so it costs the same whatever the record holds. */
const RECORD_ROWS_READ = 10_000;

/** The filters of a query string; `asOf` is read against `nowMs` (a duration is that long before it). */
export function filterOf(query: URLSearchParams, nowMs = 0): EventFilter {
  const get = (name: string) => (query.get(name) ?? '').trim();
  const asOf = get('asOf');
  const asOfMs = asOf === '' ? undefined : parseInstant(asOf, nowMs, true);
  return {
    issuer: get('issuer'),
    holder: get('holder'),
    kind: get('kind'),
    channel: get('channel'),
    source: get('source'),
    ...(asOf === '' ? {} : { asOf }),
    ...(asOfMs === undefined ? {} : { asOfMs }),
  };
}

/**
 * Whether a logged event passes the filters. A holder is a typed name, a holder key, or a holder
 * identity (`lei:<LEI>`, an alias's canonical holder: the holder page links one) across registers.
 */
export function matches(
  logged: LoggedEvent,
  f: EventFilter,
  holders: HolderIdentities = HolderIdentities.none,
): boolean {
  const { event } = logged;
  if (f.issuer && event.issuer.id !== f.issuer) return false;
  if (f.holder && !holderPasses(f.holder, event, holders)) return false;
  if (f.kind && event.kind !== f.kind) return false;
  if (f.channel && !logged.routes.some((r) => r.channel === f.channel && r.verdict !== 'skip')) return false;
  if (f.source && (event.source ?? API_SOURCE) !== f.source) return false;
  // As of a time: only what shortwatch had seen by then, whatever date the register gives it.
  if (f.asOfMs !== undefined && !seenBy(event, f.asOfMs)) return false;
  return true;
}

function holderPasses(holder: string, event: LoggedEvent['event'], holders: HolderIdentities): boolean {
  if (event.holderKey === holder || holderQueryMatches(holder, event.holder)) return true;
  return event.aggregate === undefined && holders.keyOf(event) === holders.resolve(holder);
}

/**
 * Reads the global event log, filters it, and joins each shown event with its deliveries: the record of
 * sent messages (the rows `deliveries export` writes) and the outboxes' parked and in-flight messages.
 */
export async function loadTimeline(app: App, filter: EventFilter): Promise<TimelineEntry[]> {
  const limit = app.settings.config.poll.eventsKept * GLOBAL_EVENTS_FACTOR;
  const logged = filter.issuer
    ? await app.ctx.eventLog.recentLogged({ issuerId: filter.issuer, limit })
    : await app.ctx.eventLog.recentLogged({ limit });
  const holders = new HolderIdentities(app.settings.config.holders.aliases);
  const shown = logged.filter((l) => matches(l, filter, holders)).slice(0, SHOWN);
  const oldest = shown.at(-1);
  if (!oldest) return [];
  const since = Date.parse(oldest.event.detectedAt) - CLOCK_SLACK_MS;
  const record = new DeliveryRecord(app.redis, app.ctx.prefix);
  const [rows, state] = await Promise.all([
    record.newest(since, Number.MAX_SAFE_INTEGER, RECORD_ROWS_READ),
    outboxState(app),
  ]);
  const index = indexOutcomes({ recorded: recordedMessages(rows), ...state });
  return shown.map((l) => ({ logged: l, lines: eventLines(l, index) }));
}

function outcomeText(line: EventChannelLine): SafeHtml {
  const o = line.outcome;
  if (o === null) return html`<span class="muted">not sent: ${line.reason}</span>`;
  switch (o.state) {
    case 'sent':
      return html`<span class="ok">delivered</span> ${formatTime(o.at)} after ${o.attempts} ${o.attempts === 1 ? 'attempt' : 'attempts'} <span class="muted">(${o.deliveryId})</span>`;
    case 'parked':
      return html`<span class="bad">parked</span> ${formatTime(o.at)} after ${o.attempts} attempts: ${o.error ?? 'no error recorded'} <a href="/deliveries">retry</a>`;
    case 'sending':
      return html`<span class="warn">sending</span>, ${o.attempts} attempts so far${o.error ? html`: ${o.error}` : ''}`;
    case 'queued':
      return html`<span class="warn">queued</span> <span class="muted">${line.reason}</span>`;
  }
}

/** The change in one cell: a close against 0.5%, an aggregate's own words, else from → to with the pp. */
function changeText(e: TimelineEntry['logged']['event']): SafeHtml {
  if (e.aggregate) return html`${fromText(e)} → ${toText(e)} <span class="muted">${deltaText(e)}</span>`;
  if (e.kind === 'closed')
    return html`fell below 0.5% (last ${formatPercent(e.final?.value ?? e.previous?.value ?? 0)})`;
  return html`${e.previous ? html`${formatPercent(e.previous.value)} → ` : ''}${formatPercent(e.current?.value ?? 0)} <span class="muted">${formatDelta(e.delta)}</span>`;
}

function entryRow(entry: TimelineEntry): SafeHtml {
  const e = entry.logged.event;
  const lines = entry.lines.map(
    (l) =>
      html`<li><strong>${l.channel}</strong> <span class="pill">${l.verdict}</span> ${outcomeText(l)}</li>`,
  );
  return html`<tr><td>${formatTime(e.detectedAt)}</td><td>${issuerLink(e)}</td>
<td>${holderCell(e)}</td><td>${kindText(e)}${originTags(e)}</td><td>${changeText(e)}</td>
<td>${lines.length > 0 ? html`<ul class="lines">${lines}</ul>` : html`<span class="muted">no channel</span>`}</td></tr>`;
}

function filterForm(f: EventFilter, channels: readonly string[], sources: readonly string[]): SafeHtml {
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}"${value === current ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/events"><fieldset><legend>Filter</legend>
<label>Issuer id<input name="issuer" value="${f.issuer}"></label>
<label>Holder<input name="holder" value="${f.holder}"></label>
<label>Kind<select name="kind">${option('', 'any', f.kind)}${EVENT_KINDS.map((k) => option(k, k, f.kind))}</select></label>
<label>Channel<select name="channel">${option('', 'any', f.channel)}${channels.map((c) => option(c, c, f.channel))}</select></label>
${sources.length > 0 ? html`<label>Source<select name="source">${option('', 'any', f.source)}${option(API_SOURCE, 'upstream API', f.source)}${sources.map((s) => option(s, `register ${s}`, f.source))}</select></label>` : ''}
<label>As of<input name="asOf" value="${f.asOf ?? ''}" placeholder="2026-11-01T09:00Z, 2026-11-01, 2d"></label>
<button>Show</button> <a href="/events">clear</a></fieldset></form>`;
}

/** The timeline, from its data (pure). */
export function renderTimeline(
  entries: readonly TimelineEntry[],
  f: EventFilter,
  options: { channels: readonly string[]; sources: readonly string[] },
): SafeHtml {
  const asOf =
    f.asOf === undefined
      ? ''
      : f.asOfMs === undefined
        ? html`<p class="bad">"${f.asOf}" is not a date, a date-time or a duration: every event shown.</p>`
        : html`<p>As of ${new Date(f.asOfMs).toISOString()}: only what shortwatch had seen by then (detected at or before it), whatever date the register gives.</p>`;
  return html`${filterForm(f, options.channels, options.sources)}${asOf}
<p class="muted">${entries.length} events${entries.length === SHOWN ? ` (the newest ${SHOWN})` : ''}, newest first. Each channel line says where the event went, or why not (the routing verdict kept with the event).</p>
${entries.length > 0 ? html`<table><thead><tr><th>Detected</th><th>Issuer</th><th>Holder</th><th>Kind</th><th>Change</th><th>Channels</th></tr></thead><tbody>${entries.map(entryRow)}</tbody></table>` : html`<p class="muted">no event matches</p>`}`;
}

/** GET /events. */
export async function eventsPage(ctx: PageContext): Promise<PageResult> {
  const filter = filterOf(ctx.query, ctx.app.ctx.now().getTime());
  const entries = await loadTimeline(ctx.app, filter);
  const { config } = ctx.app.settings;
  const channels = config.channels.map((c) => c.name);
  const sources = config.sources.map((s) => s.name);
  return page(
    { title: 'Events', section: '/events', refreshSeconds: 30 },
    renderTimeline(entries, filter, { channels, sources }),
  );
}
