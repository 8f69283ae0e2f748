import { z } from 'zod';
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

/** The key of one message of one issuer's events: issuer and the sorted kinds. */
export function messageKey(issuerId: string, kinds: readonly EventKind[]): string {
  return `${issuerId}|${[...kinds].sort().join('+')}`;
}

/** The key of one digest line: issuer name and kind (digests group by name). */
export function digestKey(issuerName: string, kind: EventKind): string {
  return `${issuerName}|${kind}`;
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
    const kinds = lines.flatMap((l) => {
      const kind = EMOJI_KIND.get(l.split(' ')[0] ?? '');
      return kind ? [kind] : [];
    });
    if (issuerId === undefined || kinds.length === 0) {
      unreadable.push(`Slack post without events: ${parsed.data.text.slice(0, 80)}`);
      continue;
    }
    units.push({ key: messageKey(issuerId, kinds), at: post.receivedAt.getTime() });
  }
  return { units, unreadable };
}

/** The kind of one `* …` line of an email's plain text. */
function emailLineKind(line: string): EventKind | undefined {
  if (line.includes(' fell below the 0.5% public disclosure threshold')) return 'closed';
  if (line.includes(' opened a short in ')) return 'opened';
  if (line.includes(' raised its short in ')) return 'increased';
  if (line.includes(' cut its short in ')) return 'decreased';
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
    const kinds = text.split('\n').flatMap((line) => {
      const kind = line.startsWith('* ') ? emailLineKind(line) : undefined;
      return kind ? [kind] : [];
    });
    if (issuerId === undefined || kinds.length === 0) {
      unreadable.push(`email without events: ${mail.parsed.subject ?? ''}`);
      continue;
    }
    units.push({ key: messageKey(issuerId, kinds), at: mail.receivedAt.getTime() });
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
    let issuer: string | undefined;
    let inMovers = false;
    for (const line of lines) {
      if (line === 'Top movers') inMovers = true;
      else if (line === '') inMovers = false;
      const heading = /^(.+): total disclosed short /.exec(line)?.[1];
      if (heading !== undefined) issuer = heading;
      const kind = line.startsWith('* ') && !inMovers ? emailLineKind(line) : undefined;
      if (kind && issuer !== undefined)
        units.push({ key: digestKey(issuer, kind), at: mail.receivedAt.getTime() });
      else if (kind) unreadable.push(`digest line outside an issuer: ${line.slice(0, 80)}`);
    }
  }
  return { units, unreadable };
}
