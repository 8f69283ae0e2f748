import { z } from 'zod';
import { formatPercent } from '../../src/channels/format.js';
import { messageSchema } from '../../src/channels/message-schema.js';
import { KIND_EMOJI } from '../../src/channels/slack/lines.js';
import type { CapturedSlackPost } from '../../src/demo/slack-capture.js';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { EVENT_KINDS, type EventKind, type PositionEvent } from '../../src/positions/types.js';
import { round4 } from '../../src/sandbox/index.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/** One thing a channel received, reduced to the key the oracle compares. */
export interface Unit {
  key: string;
  at: number;
  /** The event id, where the channel carries it (webhook). */
  eventId?: string;
  /** The message it came in when that matters (a digest's period). */
  group?: string;
  /** What it said (its event lines): a resend says the same, another message with the same key does not. */
  content?: string;
}

/** What one channel received, and what could not be read. */
export interface Received {
  units: Unit[];
  /** Messages that were not event messages (or could not be parsed), as short descriptions. */
  unreadable: string[];
}

/** The precise key of one event: issuer, holder key, kind, old and new value (4 decimals). */
export function eventKey(e: {
  issuerId: string;
  holderKey: string;
  kind: EventKind;
  from: number | null;
  to: number | null;
}): string {
  const value = (v: number | null) => (v === null ? '-' : String(round4(v)));
  return `${e.issuerId}|${e.holderKey}|${e.kind}|${value(e.from)}|${value(e.to)}`;
}

/**
 * One change as a message shows it: the kind and the old and new values as printed (a closed
 * position's last value depends on the history lookup, so only the kind).
 */
export function changeTag(kind: EventKind, from: number | null, to: number | null): string {
  if (kind === 'closed') return 'closed';
  if (kind === 'opened') return `opened ${formatPercent(to ?? 0)}`;
  return `${kind} ${formatPercent(from ?? 0)}>${formatPercent(to ?? 0)}`;
}

/** The key of one message of one issuer's events: issuer and its sorted change tags. */
export function messageKey(issuerId: string, tags: readonly string[]): string {
  return `${issuerId}|${[...tags].sort().join(' + ')}`;
}

/** The key of one digest line: issuer name (digests group by name) and the change tag. */
export function digestKey(issuerName: string, tag: string): string {
  return `${issuerName}|${tag}`;
}

function keyOfEvent(event: PositionEvent): string {
  return eventKey({
    issuerId: event.issuer.id,
    holderKey: event.holderKey,
    kind: event.kind,
    from: event.previous?.value ?? null,
    to: event.current?.value ?? null,
  });
}

/** Webhook POSTs accepted once per delivery id (a repeat is what the receiver drops), one unit per event. */
export function webhookReceived(receiver: WebhookReceiver): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  for (const receipt of receiver.accepted()) {
    if (receipt.deliveryId === undefined) unreadable.push('a POST without an X-Shortwatch-Delivery header');
    let json: unknown;
    try {
      json = JSON.parse(receipt.body);
    } catch {
      unreadable.push(`unparsable body: ${receipt.body.slice(0, 80)}`);
      continue;
    }
    const parsed = messageSchema.safeParse(json);
    if (!parsed.success || parsed.data.type !== 'events') {
      unreadable.push(`not an events message: ${receipt.body.slice(0, 80)}`);
      continue;
    }
    for (const event of parsed.data.events)
      units.push({ key: keyOfEvent(event), at: receipt.at, eventId: event.id });
  }
  return { units, unreadable };
}

const slackPayload = z.object({
  text: z.string(),
  blocks: z
    .array(z.object({ type: z.string(), text: z.object({ text: z.string() }).optional() }))
    .default([]),
});

const EMOJI_KIND = new Map(EVENT_KINDS.map((kind) => [KIND_EMOJI[kind], kind]));
const SLACK_INTRO = /^\*.*\* \((.+?)\) · \d+ short position changes?$/;

/** Slack posts answered 200, one unit per message: the issuer id of its intro line and the kinds of its lines. */
export function slackReceived(posts: readonly CapturedSlackPost[]): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  for (const post of posts) {
    if (post.status !== 200) continue;
    const parsed = slackPayload.safeParse(post.payload);
    if (!parsed.success) {
      unreadable.push(`unparsable Slack payload: ${JSON.stringify(post.payload).slice(0, 80)}`);
      continue;
    }
    const lines = parsed.data.blocks.flatMap((b) =>
      b.type === 'section' ? (b.text?.text ?? '').split('\n') : [],
    );
    const issuerId = lines.map((l) => SLACK_INTRO.exec(l)?.[1]).find((id) => id !== undefined);
    const eventLines = lines.filter((l) => EMOJI_KIND.has(l.split(' ')[0] ?? ''));
    const tags = eventLines.map(slackLineTag);
    if (issuerId === undefined || tags.length === 0 || tags.includes(undefined)) {
      unreadable.push(`Slack post not read as events: ${parsed.data.text.slice(0, 120)}`);
      continue;
    }
    const content = eventLines.join('\n');
    units.push({ key: messageKey(issuerId, tags.filter(defined)), at: post.receivedAt.getTime(), content });
  }
  return { units, unreadable };
}

const defined = <T>(value: T | undefined): value is T => value !== undefined;

const PCT = String.raw`(\d+\.\d+)%`;
const SLACK_OPENED = new RegExp(` opened \\*${PCT}\\* `);
const SLACK_MOVED = new RegExp(` ${PCT} → \\*${PCT}\\* `);

/** The change tag of one Slack event line (emoji, *holder*, what happened), or undefined. */
function slackLineTag(line: string): string | undefined {
  const kind = EMOJI_KIND.get(line.split(' ')[0] ?? '');
  if (kind === 'closed') return 'closed';
  const values = (kind === 'opened' ? SLACK_OPENED : SLACK_MOVED).exec(line);
  if (!kind || !values) return undefined;
  return kind === 'opened' ? `opened ${values[1]}%` : `${kind} ${values[1]}%>${values[2]}%`;
}

// describeEvent's sentences, anchored at the end: holder and issuer names may hold anything.
const EMAIL_OPENED = new RegExp(` opened a short in .*: ${PCT} \\([^()]*\\)$`);
const EMAIL_MOVED = new RegExp(` (raised|cut) its short in .* to ${PCT} \\([^()]*, from ${PCT}; [^()]*\\)$`);

/** The change tag of one `* …` line of an email's plain text, or undefined for any other line. */
function emailLineTag(line: string): string | undefined {
  if (!line.startsWith('* ')) return undefined;
  if (line.includes(' fell below the 0.5% public disclosure threshold')) return 'closed';
  const opened = EMAIL_OPENED.exec(line);
  if (opened) return `opened ${opened[1]}%`;
  const moved = EMAIL_MOVED.exec(line);
  if (moved) return `${moved[1] === 'raised' ? 'increased' : 'decreased'} ${moved[3]}%>${moved[2]}%`;
  return undefined;
}

function mailTo(mail: CapturedMail): string {
  const to = mail.parsed.to;
  return (Array.isArray(to) ? to : to ? [to] : []).map((a) => a.text).join(',');
}

/** Immediate emails to `to`, one unit per message: the issuer id of its footer and the kinds of its lines. */
export function emailReceived(mails: readonly CapturedMail[], to: string): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  for (const mail of mails) {
    if (!mailTo(mail).includes(to)) continue;
    const text = mail.parsed.text ?? '';
    const issuerId = /shortwatch · issuer (\S+)/.exec(text)?.[1];
    const eventLines = text.split('\n').filter((line) => line.startsWith('* '));
    const tags = eventLines.map(emailLineTag);
    if (issuerId === undefined || tags.length === 0 || tags.includes(undefined)) {
      unreadable.push(`email not read as events: ${mail.parsed.subject ?? ''}`);
      continue;
    }
    const content = eventLines.join('\n');
    units.push({ key: messageKey(issuerId, tags.filter(defined)), at: mail.receivedAt.getTime(), content });
  }
  return { units, unreadable };
}

/** Digest emails to `to`, one unit per event line under an issuer heading (the top movers repeat some: skipped). */
export function digestReceived(mails: readonly CapturedMail[], to: string): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  for (const mail of mails) {
    if (!mailTo(mail).includes(to)) continue;
    const lines = (mail.parsed.text ?? '').split('\n');
    const group = lines.find((line) => line.startsWith('Period: ')) ?? mail.parsed.subject ?? '';
    let issuer: string | undefined;
    let inMovers = false;
    for (const line of lines) {
      if (line === 'Top movers') inMovers = true;
      else if (line === '') inMovers = false;
      const heading = /^(.+): total disclosed short /.exec(line)?.[1];
      if (heading !== undefined) issuer = heading;
      if (!line.startsWith('* ') || inMovers) continue;
      const tag = emailLineTag(line);
      if (tag && issuer !== undefined) {
        units.push({ key: digestKey(issuer, tag), at: mail.receivedAt.getTime(), group, content: line });
      } else unreadable.push(`digest line not read: ${line.slice(0, 120)}`);
    }
  }
  return { units, unreadable };
}
