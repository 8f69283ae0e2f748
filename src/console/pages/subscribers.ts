import { isSilenced, type Subscriber, wantsDigest, webhookShown } from '../../routing/subscriber.js';
import type { AuditEntry } from '../../state/subscriber-store.js';
import {
  type SubscriberQueue,
  type SubscriberRow,
  type SubscriberView,
  subscriberRows,
  subscriberView,
} from '../data/subscriber-views.js';
import { displayText, formatAge, formatPercent, formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { type PageContext, type PageResult, page } from '../page.js';
import { paths } from '../paths.js';
import { recordTable } from './record-section.js';

/** How many of a subscriber's issuers (and holders) the list names before "+N more". */
const NAMED_IN_LIST = 2;

/** What the subscribers page shows. */
export interface SubscribersData {
  rows: SubscriberRow[];
  /** Every subscriber, before the filter. */
  total: number;
  filter: string;
  /** Whether the config has a `subscribers` section (without one nothing is sent to them). */
  configured: boolean;
  nowMs: number;
}

function named(list: readonly string[]): string {
  const shown = list.slice(0, NAMED_IN_LIST).map(displayText).join(', ');
  return list.length > NAMED_IN_LIST ? `${shown} +${list.length - NAMED_IN_LIST} more` : shown;
}

/** What a subscriber follows, in one short line. */
export function watchSummary(s: Subscriber): string {
  const parts = [];
  if (s.watch.issuers.length > 0) parts.push(named(s.watch.issuers));
  if (s.watch.holders.length > 0) parts.push(`holders anywhere: ${named(s.watch.holders)}`);
  return parts.join('; ') || 'nothing yet';
}

function modeText(s: Subscriber): string {
  const digest = `digest ${s.prefs.digestSchedule} (${s.prefs.timezone})`;
  const routes = ['e-mail', s.webhook ? 'webhook' : '', s.slackUser ? 'Slack DM' : ''].filter(Boolean);
  const atOnce = routes.length > 1 ? `at once (${routes.join(', ')})` : 'at once';
  if (s.prefs.mode === 'immediate') return atOnce;
  return s.prefs.mode === 'digest' ? digest : `${atOnce} and ${digest}`;
}

/** Active, paused or unsubscribed, with when (a pause from before its time was kept shows none). */
function stateCell(s: Subscriber, nowMs: number): SafeHtml {
  const when = (at: string | undefined) =>
    at ? html`<br><span class="muted" title="${formatTime(at)}">${formatAge(at, nowMs)}</span>` : '';
  if (s.unsubscribedAt !== undefined)
    return html`<span class="bad">unsubscribed</span>${when(s.unsubscribedAt)}`;
  if (s.prefs.paused) return html`<span class="warn">paused</span>${when(s.pausedAt)}`;
  return html`<span class="ok">active</span>`;
}

function queueCell(q: SubscriberQueue): SafeHtml {
  const parked = q.parked > 0 ? html`<span class="bad">${q.parked} parked</span>` : html`0 parked`;
  return html`${q.queued} queued · ${parked}${q.staged > 0 ? html` · ${q.staged} for the digest` : ''}`;
}

function listRow(row: SubscriberRow, nowMs: number): SafeHtml {
  const s = row.subscriber;
  // State and outbox next to the name: on a phone the table scrolls with its first column pinned.
  return html`<tr data-subscriber="${s.id}"><td><a href="${paths.subscriber(s.id)}">${displayText(s.name)}</a></td><td>${stateCell(s, nowMs)}</td>
<td>${queueCell(row.queue)}</td><td>${watchSummary(s)}</td><td>${modeText(s)}</td><td>${displayText(s.email)}</td></tr>`;
}

/** The subscribers page, from its data (pure). */
export function renderSubscribers(data: SubscribersData): SafeHtml {
  const all = data.rows.map((r) => r.subscriber);
  const counts = `${all.filter((s) => !isSilenced(s)).length} active, ${all.filter((s) => s.prefs.paused && s.unsubscribedAt === undefined).length} paused, ${all.filter((s) => s.unsubscribedAt !== undefined).length} unsubscribed`;
  const shown = data.filter
    ? `${data.rows.length} of ${data.total} subscribers match (${counts})`
    : `${data.total} subscribers (${counts})`;
  return html`${data.configured ? '' : html`<p class="notice bad">The config has no <code>subscribers</code> section: nothing is sent to these subscribers.</p>`}
<form method="get" action="/subscribers" id="subscriber-search"><fieldset><legend>Find</legend>
<label>Name or e-mail<input name="q" value="${data.filter}"></label> <button>Find</button> <a href="/subscribers">all</a></fieldset></form>
<p class="muted">${shown}. Add, edit and import them with <code>shortwatch subscribers</code>; each manages their own alerts from the link in every message.</p>
${
  data.rows.length > 0
    ? html`<table id="subscribers"><thead><tr><th>Name</th><th>State</th><th>Outbox</th><th>Follows</th><th>How</th><th>E-mail</th></tr></thead><tbody>${data.rows.map((r) => listRow(r, data.nowMs))}</tbody></table>`
    : html`<p class="muted" id="subscribers-none">${data.total > 0 ? 'no subscriber matches' : 'no subscribers yet'}</p>`
}`;
}

/** GET /subscribers: every subscriber, or those whose name or address matches `q`. */
export async function subscribersPage(ctx: PageContext): Promise<PageResult> {
  const { app } = ctx;
  const filter = (ctx.query.get('q') ?? '').trim();
  const data: SubscribersData = {
    rows: await subscriberRows(app, filter),
    total: await app.ctx.subscribers.count(),
    filter,
    configured: app.settings.config.subscribers !== undefined,
    nowMs: app.ctx.now().getTime(),
  };
  return page({ title: 'Subscribers', section: '/subscribers', refreshSeconds: 30 }, renderSubscribers(data));
}

function listOrNone(items: readonly string[], none: string): SafeHtml {
  return items.length > 0
    ? html`<ul>${items.map((item) => html`<li>${displayText(item)}</li>`)}</ul>`
    : html`<p class="muted">${none}</p>`;
}

function prefsTable(s: Subscriber): SafeHtml {
  const p = s.prefs;
  const q = p.quietHours;
  const rows: Array<[string, string]> = [
    ['Kinds', p.kinds.length > 0 ? p.kinds.join(', ') : 'every kind'],
    ['Positions of at least', p.minValue === undefined ? 'any size' : formatPercent(p.minValue)],
    ['Moves of at least', p.minDelta === undefined ? 'any move' : `${p.minDelta} percentage points`],
    ['Register aggregates', p.aggregates ? 'yes' : 'no'],
    ['How', modeText(s)],
    ['Time zone', p.timezone],
    ['Quiet hours', q ? `${q.start}–${q.end} ${q.timezone}, ${q.days.join(' ')}` : 'none'],
    ['Paused', p.paused ? 'yes' : 'no'],
  ];
  if (!wantsDigest(s)) rows.splice(5, 0, ['Digest schedule', `${p.digestSchedule} (not in use)`]);
  return html`<table id="prefs"><tbody>${rows.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>`;
}

function auditTable(entries: readonly AuditEntry[]): SafeHtml {
  if (entries.length === 0) return html`<p class="muted">no change recorded</p>`;
  return html`<table id="audit"><thead><tr><th>When</th><th>Change</th><th>What</th><th class="num">Version</th><th>Who</th><th>Through</th><th>From</th></tr></thead><tbody>${entries.map(
    (e) =>
      html`<tr><td>${formatTime(e.at)}</td><td>${e.action}</td><td>${e.changed.join(', ')}</td><td class="num">${e.version}</td><td>${displayText(e.who)}</td><td>${e.via}</td><td>${displayText(e.from)}</td></tr>`,
  )}</tbody></table>`;
}

/** Their personal routes beside e-mail: the webhook's origin only (its path may carry a token). */
function alsoTo(view: SubscriberView): SafeHtml | '' {
  const s = view.subscriber;
  const unused = (configured: boolean, key: string) =>
    configured ? '' : html` <span class="warn">(not used: no <code>subscribers.${key}</code>)</span>`;
  const parts = [
    s.webhook === undefined
      ? ''
      : html`<li>webhook <code>${webhookShown(s.webhook)}</code>${unused(view.routes.webhook, 'webhook')}</li>`,
    s.slackUser === undefined
      ? ''
      : html`<li>Slack DM to <code>${s.slackUser}</code>${unused(view.routes.slack, 'slack')}</li>`,
  ];
  return s.webhook === undefined && s.slackUser === undefined
    ? ''
    : html`<p>Each change also goes to:</p><ul id="routes">${parts}</ul>`;
}

/** One subscriber's page, from its data (pure): no link of theirs is shown, signed or not. */
export function renderSubscriber(view: SubscriberView, nowMs: number): SafeHtml {
  const s = view.subscriber;
  return html`<p>${displayText(s.email)} · ${stateCell(s, nowMs)} · <span class="muted">id <code>${s.id}</code>, version ${s.version}, added ${formatTime(s.createdAt)}, changed ${formatTime(s.updatedAt)}</span></p>
${alsoTo(view)}
<h2>Watchlist</h2>
<h3>Issuers (any holder)</h3>
${listOrNone(s.watch.issuers, 'none')}
<h3>Holders (anywhere)</h3>
${listOrNone(s.watch.holders, 'none')}
<h2>Preferences</h2>
${prefsTable(s)}
<h2>Outbox</h2>
<p id="outbox">${queueCell(view.queue)}</p>
<h2>Changes</h2>
${auditTable(view.audit)}
<h2>Received</h2>
<p class="muted">${view.received.length} message${view.received.length === 1 ? '' : 's'} from the record of sent messages, ${formatTime(view.sinceMs)} to ${formatTime(view.untilMs)}, most recently tried first${view.cut ? ', from the newest rows only' : ''}.</p>
${view.received.length > 0 ? recordTable(view.received) : html`<p class="muted" id="received-none">nothing received in this span</p>`}`;
}

/** GET /subscribers/<id>. */
export async function subscriberPage(ctx: PageContext, id: string): Promise<PageResult> {
  const view = await subscriberView(ctx.app, id);
  if (!view)
    return page(
      { title: 'No such subscriber', section: '/subscribers' },
      html`<p>No subscriber <code>${id}</code>: removed, or never added. <a href="/subscribers">Every subscriber</a></p>`,
      404,
    );
  return page(
    { title: displayText(view.subscriber.name), section: '/subscribers', refreshSeconds: 30 },
    renderSubscriber(view, ctx.app.ctx.now().getTime()),
  );
}
