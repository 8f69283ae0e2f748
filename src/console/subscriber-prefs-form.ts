import { ianaTimezone } from '../config/schema/value-types.js';
import { EVENT_KINDS } from '../positions/types.js';
import { cronPatternProblem, nextCronRun } from '../preflight/cron-pattern.js';
import { isSilenced, type Subscriber, wantsDigest, webhookShown } from '../routing/subscriber.js';
import { html, type SafeHtml } from './html.js';

/** A preference form read: the subscriber it asks for, or why it is refused with the form as typed. */
export type FormEdit =
  | { ok: true; subscriber: Subscriber }
  | { ok: false; problem: string; typed: Subscriber };

function lines(value: string | null): string[] {
  return [
    ...new Set(
      (value ?? '')
        .split(/\r?\n/u)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  ];
}

function optionalNumber(value: string | null): number | undefined {
  return value === null || value.trim() === '' ? undefined : Number(value.replace(',', '.'));
}

/** The subscriber as the form asks; a field the form did not carry (an older page) keeps its value. */
function edited(s: Subscriber, form: URLSearchParams): Subscriber {
  const mode = form.get('mode');
  const { minValue: _v, minDelta: _d, ...prefs } = s.prefs;
  const minValue = optionalNumber(form.get('minValue'));
  const minDelta = optionalNumber(form.get('minDelta'));
  return {
    ...s,
    watch: { issuers: lines(form.get('issuers')), holders: lines(form.get('holders')) },
    prefs: {
      ...prefs,
      kinds: EVENT_KINDS.filter((kind) => form.getAll('kinds').includes(kind)),
      ...(minValue === undefined ? {} : { minValue }),
      ...(minDelta === undefined ? {} : { minDelta }),
      aggregates: form.get('aggregates') === '1',
      mode: mode === 'digest' || mode === 'both' ? mode : 'immediate',
      digestSchedule: (form.get('digestSchedule') ?? s.prefs.digestSchedule).trim(),
      timezone: (form.get('timezone') ?? s.prefs.timezone).trim(),
      paused: form.get('paused') === '1',
    },
  };
}

/**
 * Why the digest's time zone or schedule cannot be used, in the words a subscriber reads, or undefined.
 * Checked here, before the store, so that a typo is refused whole (nothing saved) with what to type
 * instead, and read by the parser the digest schedulers use, so what passes here is what will run.
 */
function digestProblem(prefs: Subscriber['prefs']): string | undefined {
  const { timezone, digestSchedule } = prefs;
  if (!ianaTimezone.safeParse(timezone).success)
    return `Time zone "${timezone}" is not one shortwatch knows: use an IANA name such as Europe/London or America/New_York. Nothing was saved.`;
  if (digestSchedule === '')
    return 'The digest schedule is empty: a cron pattern such as 30 7 * * 1-5 (07:30 on weekdays). Nothing was saved.';
  const problem = cronPatternProblem(digestSchedule, timezone);
  return problem === undefined
    ? undefined
    : `Digest schedule "${digestSchedule}" cannot be used: ${problem}. Nothing was saved.`;
}

/** The preference form's fields read over the stored subscriber, checked before anything is saved. */
export function formEdit(s: Subscriber, form: URLSearchParams): FormEdit {
  const typed = edited(s, form);
  const problem = digestProblem(typed.prefs);
  return problem === undefined ? { ok: true, subscriber: typed } : { ok: false, problem, typed };
}

/** When the subscriber's next digest is due, in their time zone: `Mon, 30 Nov 2026, 07:30 (Europe/London)`. */
function nextDigestText(s: Subscriber, now: Date): string {
  const { digestSchedule, timezone } = s.prefs;
  const next = nextCronRun(digestSchedule, timezone, now);
  if (!next) return 'never (the schedule cannot be used)';
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(next);
  return `${local} (${timezone})`;
}

/** The subscriber's own preference form (pure but for the clock it is handed). */
export function prefsForm(s: Subscriber, now: Date): SafeHtml {
  const kind = (k: string) =>
    html`<label class="check"><input type="checkbox" name="kinds" value="${k}"${s.prefs.kinds.includes(k as never) ? html` checked` : ''}> ${k}</label> `;
  const mode = (m: string, label: string) =>
    html`<label class="check"><input type="radio" name="mode" value="${m}"${s.prefs.mode === m ? html` checked` : ''}> ${label}</label> `;
  const state = isSilenced(s) ? (s.unsubscribedAt ? 'unsubscribed' : 'paused') : 'receiving alerts';
  const next = wantsDigest(s)
    ? html`<p class="muted" id="next-digest">Next digest: ${nextDigestText(s, now)}</p>`
    : '';
  const routes = [
    s.webhook === undefined ? '' : html`your webhook at <code>${webhookShown(s.webhook)}</code>`,
    s.slackUser === undefined ? '' : html`a Slack message to <code>${s.slackUser}</code>`,
  ].filter((part) => part !== '');
  const also =
    routes.length === 0
      ? ''
      : html`<p class="muted" id="routes">Each change also goes to ${routes.length === 2 ? html`${routes[0]} and ${routes[1]}` : routes[0]} (the desk sets these).</p>`;
  return html`<p>${s.name} · ${s.email} · <strong>${state}</strong></p>
${also}
<form method="post" class="prefs">
<input type="hidden" name="version" value="${s.version}">
<label>Issuers I follow (any holder), one per line: name, ISIN or id<br><textarea name="issuers" rows="6">${s.watch.issuers.join('\n')}</textarea></label>
<label>Holders I follow anywhere, one per line<br><textarea name="holders" rows="3">${s.watch.holders.join('\n')}</textarea></label>
<fieldset><legend>Kinds (none ticked: every kind)</legend>${EVENT_KINDS.map(kind)}</fieldset>
<label>Only positions of at least (%) <input name="minValue" inputmode="decimal" value="${s.prefs.minValue ?? ''}"></label>
<label>Only moves of at least (percentage points) <input name="minDelta" inputmode="decimal" value="${s.prefs.minDelta ?? ''}"></label>
<label class="check"><input type="checkbox" name="aggregates" value="1"${s.prefs.aggregates ? html` checked` : ''}> Register aggregates of my issuers</label>
<fieldset><legend>How</legend>${mode('immediate', 'at once')}${mode('digest', 'in my digest')}${mode('both', 'both')}</fieldset>
<fieldset><legend>My digest</legend>
<label>Schedule (cron: minute hour day month weekday) <input name="digestSchedule" value="${s.prefs.digestSchedule}" autocomplete="off" spellcheck="false" aria-describedby="schedule-hint"></label>
<label>Time zone <input name="timezone" value="${s.prefs.timezone}" autocomplete="off" spellcheck="false"></label>
<p class="muted" id="schedule-hint">30 7 * * 1-5 is 07:30 on weekdays; 0 8,17 * * * is 08:00 and 17:00 every day. The time zone is an IANA name such as Europe/London or America/New_York.</p>
</fieldset>
${next}
<label class="check"><input type="checkbox" name="paused" value="1"${s.prefs.paused ? html` checked` : ''}> Pause all alerts</label>
<p><button>Save</button></p>
</form>`;
}
