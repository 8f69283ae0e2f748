import type { App } from '../../app.js';
import { EXPORT_FORMATS } from '../../record/export.js';
import { type RecordQuery, searchNewest } from '../../record/search.js';
import { parseInstant } from '../../record/time-range.js';
import { DeliveryRecord, type RecordedAttempt } from '../../state/delivery-record.js';
import { DAY_MS } from '../../time/units.js';
import { type RecordedMessage, recordedMessages } from '../data/record-messages.js';
import { displayText, formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';

/** The search as typed (echoed in the form) and as read. */
export interface RecordSearch {
  fields: { issuer: string; holder: string; channel: string; from: string; to: string };
  query: RecordQuery;
}

/** What the record section shows. */
export interface RecordView {
  search: RecordSearch;
  messages: RecordedMessage[];
  /** The search stopped at its row budget before the range's start. */
  cut: boolean;
  channels: readonly string[];
}

const DEFAULT_SPAN_MS = 7 * DAY_MS;
const ROWS_SHOWN = 500;
const ROWS_SCANNED = 50_000;

/** The search a query string names: the last 7 days unless `from`/`to` say otherwise. */
export function recordSearchOf(query: URLSearchParams, nowMs: number): RecordSearch {
  const get = (name: string) => (query.get(name) ?? '').trim();
  const fields = {
    issuer: get('issuer'),
    holder: get('holder'),
    channel: get('channel'),
    from: get('from'),
    to: get('to'),
  };
  const untilMs = parseInstant(fields.to, nowMs, true) ?? nowMs;
  const sinceMs = parseInstant(fields.from, nowMs) ?? untilMs - DEFAULT_SPAN_MS;
  const { issuer, holder, channel } = fields;
  return {
    fields,
    query: {
      sinceMs,
      untilMs,
      ...(issuer ? { issuer } : {}),
      ...(holder ? { holder } : {}),
      ...(channel ? { channel } : {}),
    },
  };
}

/** Reads the record for a search. */
export async function loadRecord(app: App, search: RecordSearch): Promise<RecordView> {
  const record = new DeliveryRecord(app.redis, app.ctx.prefix);
  const { rows, cut } = await searchNewest(record, search.query, ROWS_SHOWN, ROWS_SCANNED);
  const channels = app.settings.config.channels.map((c) => c.name);
  return { search, messages: recordedMessages(rows), cut, channels };
}

/** The export link of a search, in one format: the same rows, one per attempt. */
export function exportHref(search: RecordSearch, format: string): string {
  const params = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(search.fields)) if (value) params.set(name, value);
  return `/deliveries/export?${params.toString()}`;
}

function attemptText(a: RecordedAttempt): SafeHtml {
  if (a.answer === 'ok') return html`<li><span class="ok">ok</span> ${formatTime(a.at)}</li>`;
  const why = [a.status, a.cause].filter((part) => part !== undefined).join(' ');
  return html`<li><span class="bad">${why || 'error'}</span> ${formatTime(a.at)} <span class="muted">${a.action ?? ''}: ${a.error ?? ''}</span></li>`;
}

function messageRow(m: RecordedMessage): SafeHtml {
  const issuers = m.issuers.map((i) => displayText(i.name)).join(', ');
  return html`<tr data-delivery="${m.deliveryId}"><td>${m.acceptedAt === null ? html`<span class="bad">not taken</span>` : formatTime(m.acceptedAt)}</td><td>${m.channel}</td>
<td><code>${m.deliveryId}</code>${m.messageId ? html`<br><code class="muted">${m.messageId}</code>` : ''}</td><td>${issuers || m.type}</td>
<td>${m.holders.map(displayText).join(', ')}</td><td>${m.kinds.join(', ')}</td><td class="num">${m.events}</td>
<td class="num">${m.attempts.length}</td><td><ul class="lines">${m.attempts.map(attemptText)}</ul></td></tr>`;
}

function searchForm(view: RecordView): SafeHtml {
  const f = view.search.fields;
  const option = (value: string, label: string) =>
    html`<option value="${value}"${value === f.channel ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/deliveries" id="record-search"><fieldset><legend>Search the record</legend>
<label>Issuer<input name="issuer" value="${f.issuer}"></label>
<label>Holder<input name="holder" value="${f.holder}"></label>
<label>Channel<select name="channel">${option('', 'any')}${view.channels.map((c) => option(c, c))}</select></label>
<label>From<input name="from" value="${f.from}" placeholder="2026-11-01 or 7d"></label>
<label>To<input name="to" value="${f.to}" placeholder="now"></label>
<button>Search</button> <a href="/deliveries">clear</a></fieldset></form>`;
}

/** The record section of the deliveries page (pure). */
export function renderRecord(view: RecordView): SafeHtml {
  const { sinceMs, untilMs } = view.search.query;
  const links = EXPORT_FORMATS.map(
    (format) =>
      html`<a href="${exportHref(view.search, format)}" download>${format === 'csv' ? 'CSV' : 'JSON Lines'}</a>`,
  );
  return html`<h2>Sent messages (the record)</h2>
${searchForm(view)}
<p class="muted">${view.messages.length} messages from ${formatTime(sinceMs)} to ${formatTime(untilMs)}, most recently tried first${view.cut ? ', from the newest rows only (narrow the range for older ones)' : ''}. Download every attempt of this search: ${links[0]} · ${links[1]}</p>
${view.messages.length > 0 ? recordTable(view.messages) : html`<p class="muted" id="record-none">nothing recorded matches</p>`}`;
}

/** Recorded messages as a table, one row a message with its attempts (pure): the deliveries page's and a subscriber's. */
export function recordTable(messages: readonly RecordedMessage[]): SafeHtml {
  return html`<table id="record"><thead><tr><th>Accepted</th><th>Channel</th><th>Delivery / Message-ID</th><th>Issuers</th><th>Holders</th><th>Kinds</th><th class="num">Events</th><th class="num">Attempts</th><th>Answers</th></tr></thead><tbody>${messages.map(messageRow)}</tbody></table>`;
}
