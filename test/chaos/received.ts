import { z } from 'zod';
import { deliveryMessageId as messageIdFor } from '../../src/channels/email/message-id.js';
import { DELIVERY_HEADER as EMAIL_DELIVERY_HEADER } from '../../src/channels/email/send.js';
import { formatPercent } from '../../src/channels/format.js';
import { messageSchema } from '../../src/channels/message-schema.js';
import { LOOK_EMOJI } from '../../src/channels/slack/lines.js';
import type { CapturedSlackPost } from '../../src/demo/slack-capture.js';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { round4 } from '../../src/positions/round.js';
import type { EventKind, PositionEvent } from '../../src/positions/types.js';
import { readChanges } from '../e2e/story-lines.js';
import type { WebhookReceipt, WebhookReceiver } from './webhook-receiver.js';

/** One thing a channel received, reduced to the key the oracle compares. */
export interface Unit {
  key: string;
  at: number;
  /** The event id, where the channel carries it (webhook). */
  eventId?: string;
  /** The issuer id, where the message names it per event (not in digests, which group by name). */
  issuer?: string;
  /** The period of a digest: a repeat in another period is a replay, never a resend. */
  group?: string;
  /** Which received message carried it (`slack#3`, `mail#12`, `hook#7`): several units share one. */
  message?: string;
  /** The message's idempotency key where the channel has one (e-mail Message-ID). */
  messageId?: string;
  /**
   * The same for this unit in a resend of its whole message, and for nothing else: the event id
   * (webhook), Message-ID + key (e-mail), the whole message's text + key (Slack, which has no id).
   */
  resendKey?: string;
}

/** What one channel received, and what could not be read or does not hold together. */
export interface Received {
  units: Unit[];
  /** Messages received (accepted), repeats included. */
  messages: number;
  /** Messages that were not event messages (or could not be parsed), as short descriptions. */
  unreadable: string[];
  /** Idempotency keys that do not hold together (one event under two delivery ids, …): each fails the run. */
  inconsistent: string[];
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

/** The key of one change in a Slack or e-mail message: the issuer id and the change tag. */
export function changeKey(issuerId: string, tag: string): string {
  return `${issuerId}|${tag}`;
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

/** Units of one message, each with a resend key `<prefix>|<key>#<n>` (n tells equal keys apart). */
function withResendKeys(units: Unit[], prefix: string): Unit[] {
  const seen = new Map<string, number>();
  return units.map((unit) => {
    const n = seen.get(unit.key) ?? 0;
    seen.set(unit.key, n + 1);
    return { ...unit, resendKey: `${prefix}|${unit.key}#${n}` };
  });
}

/** The events of a webhook body (`events`, or `batch` with several issuers), or why it is not one. */
function webhookEvents(receipt: WebhookReceipt): PositionEvent[] | string {
  let json: unknown;
  try {
    json = JSON.parse(receipt.body);
  } catch {
    return `unparsable body: ${receipt.body.slice(0, 80)}`;
  }
  const parsed = messageSchema.safeParse(json);
  if (!parsed.success) return `not a message: ${receipt.body.slice(0, 80)}`;
  const message = parsed.data;
  if (message.type === 'events') return message.events;
  if (message.type === 'batch') {
    const strays = message.groups.flatMap((g) => g.events.filter((e) => e.issuer.id !== g.issuer.id));
    if (strays.length > 0) return `a batch group holds another issuer's event: ${strays[0]?.id}`;
    return message.groups.flatMap((group) => group.events);
  }
  return `not an events message: ${receipt.body.slice(0, 80)}`;
}

/**
 * Webhook POSTs accepted once per delivery id (a repeat is what the receiver drops), one unit per
 * event. Every 2xx POST, repeats included, is checked: an event travels under one delivery id only,
 * and a delivery id always carries the same events.
 */
export function webhookReceived(receiver: WebhookReceiver): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  const accepted = new Set(receiver.accepted());
  const idOfEvent = new Map<string, string>();
  const eventsOfId = new Map<string, string>();
  const inconsistent = new Set<string>();
  receiver.receipts.forEach((receipt, index) => {
    if (receipt.status < 200 || receipt.status >= 300) return;
    const events = webhookEvents(receipt);
    if (typeof events === 'string') {
      if (accepted.has(receipt)) unreadable.push(events);
      return;
    }
    const deliveryId = receipt.deliveryId;
    if (deliveryId === undefined) {
      unreadable.push('a POST without an X-Shortwatch-Delivery header');
    } else {
      const ids = events
        .map((e) => e.id)
        .sort()
        .join(',');
      const before = eventsOfId.get(deliveryId);
      if (before !== undefined && before !== ids) {
        inconsistent.add(`delivery id ${deliveryId} carried other events when sent again`);
      }
      eventsOfId.set(deliveryId, before ?? ids);
      for (const event of events) {
        const first = idOfEvent.get(event.id);
        if (first !== undefined && first !== deliveryId) {
          inconsistent.add(`event ${event.id} came under delivery ids ${first} and ${deliveryId}`);
        }
        idOfEvent.set(event.id, first ?? deliveryId);
      }
    }
    if (!accepted.has(receipt)) return;
    for (const event of events) {
      units.push({
        key: keyOfEvent(event),
        at: receipt.at,
        eventId: event.id,
        issuer: event.issuer.id,
        message: `hook#${index}`,
        resendKey: event.id,
      });
    }
  });
  return { units, messages: accepted.size, unreadable, inconsistent: [...inconsistent] };
}

const slackPayload = z.object({
  text: z.string(),
  blocks: z
    .array(
      z.object({
        type: z.string(),
        text: z.object({ text: z.string() }).optional(),
        elements: z.array(z.object({ text: z.string().optional() })).optional(),
      }),
    )
    .default([]),
});

const EVENT_EMOJI = new Set(Object.values(LOOK_EMOJI));
// An issuer's heading in a batch (maybe continued); a one-issuer message names it in its context line.
const SLACK_HEADING = /^\*.*\* \(([^()]+)\) · total .*$/;
const SLACK_CONTEXT_ISSUER = /^([^ ]+) · Issuer total /;

/**
 * Slack posts answered 200, one unit per event line, keyed by the issuer of the heading above it: one
 * issuer's intro, or the issuer sections of a batch. Slack has no id: a resend is recognised as a post
 * whose event lines and headings say exactly what an earlier one said.
 */
export function slackReceived(posts: readonly CapturedSlackPost[]): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  let messages = 0;
  posts.forEach((post, index) => {
    if (post.status !== 200) return;
    messages++;
    const parsed = slackPayload.safeParse(post.payload);
    if (!parsed.success) {
      unreadable.push(`unparsable Slack payload: ${JSON.stringify(post.payload).slice(0, 80)}`);
      return;
    }
    const lines = parsed.data.blocks.flatMap((b) =>
      b.type === 'section' ? (b.text?.text ?? '').split('\n') : [],
    );
    const context = parsed.data.blocks.find((b) => b.type === 'context')?.elements?.[0]?.text ?? '';
    const read = readSlackLines(lines, SLACK_CONTEXT_ISSUER.exec(context)?.[1]);
    if (typeof read === 'string') {
      unreadable.push(`Slack post not read as events (${read}): ${parsed.data.text.slice(0, 120)}`);
      return;
    }
    const at = post.receivedAt.getTime();
    const message = `slack#${index}`;
    const content = lines.join('\n');
    units.push(
      ...withResendKeys(
        read.map((line) => ({ ...line, at, message })),
        content,
      ),
    );
  });
  return { units, messages, unreadable, inconsistent: [] };
}

/** The issuer and change key of each change on the event lines of a Slack post, or why they cannot be read. */
function readSlackLines(
  lines: readonly string[],
  contextIssuer: string | undefined,
): Array<{ issuer: string; key: string }> | string {
  const keys: Array<{ issuer: string; key: string }> = [];
  let issuerId = contextIssuer;
  for (const line of lines) {
    const heading = SLACK_HEADING.exec(line)?.[1];
    if (heading !== undefined) {
      issuerId = heading;
      continue;
    }
    if (!EVENT_EMOJI.has(line.split(' ')[0] ?? '')) continue;
    const tags = lineTags(line);
    if (tags === undefined) return `event line not read: ${line.slice(0, 80)}`;
    if (issuerId === undefined) return 'event line without an issuer heading or context line';
    for (const tag of tags) keys.push({ issuer: issuerId, key: changeKey(issuerId, tag) });
  }
  return keys.length > 0 ? keys : 'no event lines';
}

/** The change tags of one event line (Slack) or `* …` line (e-mail text): several for a sequence. */
function lineTags(line: string): string[] | undefined {
  return readChanges(line)?.map((change) => changeTag(change.kind, change.from, change.to));
}

function mailTo(mail: CapturedMail): string {
  const to = mail.parsed.to;
  return (Array.isArray(to) ? to : to ? [to] : []).map((a) => a.text).join(',');
}

/**
 * The Message-ID of a mail sent under a delivery id, or why it has none: shortwatch sets
 * `Message-ID: <deliveryId@domain>` and `X-Shortwatch-Delivery: deliveryId`, and they must agree.
 */
function deliveryMessageId(mail: CapturedMail): { messageId: string } | { problem: string } {
  const messageId = mail.parsed.messageId;
  const header = mail.parsed.headers.get(EMAIL_DELIVERY_HEADER.toLowerCase());
  const deliveryId = typeof header === 'string' ? header : undefined;
  if (messageId === undefined || deliveryId === undefined) {
    return { problem: `no Message-ID or ${EMAIL_DELIVERY_HEADER} header` };
  }
  const from = mail.parsed.from?.value[0]?.address ?? '';
  if (messageId !== messageIdFor(deliveryId, from)) {
    return { problem: `Message-ID ${messageId} is not the one of delivery id ${deliveryId}` };
  }
  return { messageId };
}

/**
 * Immediate emails to `to`, one unit per event line, keyed by the issuer of the footer (one issuer
 * per e-mail). A resend carries the same Message-ID, which a mail system drops.
 */
export function emailReceived(mails: readonly CapturedMail[], to: string): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  let messages = 0;
  mails.forEach((mail, index) => {
    if (!mailTo(mail).includes(to)) return;
    messages++;
    const subject = mail.parsed.subject ?? '';
    const text = mail.parsed.text ?? '';
    const issuerId = /^shortwatch · issuer (\S+)/m.exec(text)?.[1];
    const tags = text
      .split('\n')
      .filter((line) => line.startsWith('* '))
      .flatMap((line) => lineTags(line) ?? [undefined]);
    const id = deliveryMessageId(mail);
    if ('problem' in id) {
      unreadable.push(`email ${id.problem}: ${subject}`);
      return;
    }
    if (issuerId === undefined || tags.length === 0 || tags.includes(undefined)) {
      unreadable.push(`email not read as one issuer's events: ${subject}`);
      return;
    }
    const at = mail.receivedAt.getTime();
    const base = { at, issuer: issuerId, message: `mail#${index}`, messageId: id.messageId };
    const read = tags.filter(defined).map((tag) => ({ ...base, key: changeKey(issuerId, tag) }));
    units.push(...withResendKeys(read, id.messageId));
  });
  return { units, messages, unreadable, inconsistent: [] };
}

const defined = <T>(value: T | undefined): value is T => value !== undefined;

/**
 * Digest emails to `to`, one unit per event line under an issuer heading (the top movers repeat some:
 * skipped); a resend of one period carries that period's Message-ID.
 */
export function digestReceived(mails: readonly CapturedMail[], to: string): Received {
  const units: Unit[] = [];
  const unreadable: string[] = [];
  let messages = 0;
  mails.forEach((mail, index) => {
    if (!mailTo(mail).includes(to)) return;
    messages++;
    const lines = (mail.parsed.text ?? '').split('\n');
    const group = lines.find((line) => line.startsWith('Period: ')) ?? mail.parsed.subject ?? '';
    const id = deliveryMessageId(mail);
    if ('problem' in id) {
      unreadable.push(`digest ${id.problem}: ${mail.parsed.subject ?? ''}`);
      return;
    }
    const base = { at: mail.receivedAt.getTime(), group, message: `mail#${index}`, messageId: id.messageId };
    const read: Unit[] = [];
    let issuer: string | undefined;
    let inMovers = false;
    for (const line of lines) {
      if (line === 'Top movers') inMovers = true;
      else if (line === '') inMovers = false;
      const heading = /^(.+): total disclosed short /.exec(line)?.[1];
      if (heading !== undefined) issuer = heading;
      if (!line.startsWith('* ') || inMovers) continue;
      const tags = lineTags(line);
      if (tags && issuer !== undefined)
        for (const tag of tags) read.push({ ...base, key: digestKey(issuer, tag) });
      else unreadable.push(`digest line not read: ${line.slice(0, 120)}`);
    }
    units.push(...withResendKeys(read, id.messageId));
  });
  return { units, messages, unreadable, inconsistent: [] };
}
