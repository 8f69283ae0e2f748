import { createHash } from 'node:crypto';
import type { PositionEvent } from '../../positions/types.js';
import { formatInstant } from '../time.js';
import { senderDomain } from './message-id.js';
import { clipChars, MAX_SUBJECT_NAME_CHARS } from './text.js';

/**
 * The UTC day (`2026-11-23`) a message of events belongs to: that of its newest detection, so that a
 * resend of the same message falls on the same day. Undefined without events.
 */
export function threadDay(events: readonly PositionEvent[]): string | undefined {
  const newest = events
    .map((e) => e.detectedAt)
    .filter((at) => !Number.isNaN(Date.parse(at)))
    .sort((a, b) => Date.parse(a) - Date.parse(b))
    .at(-1);
  return newest === undefined ? undefined : new Date(newest).toISOString().slice(0, 10);
}

/** `23 Nov 2026`: the day in the subject, with the month names every other date of ours uses. */
export function dayLabel(day: string): string {
  return formatInstant(`${day}T12:00:00.000Z`, 'UTC', { year: true }).replace(/ \d\d:\d\d$/, '');
}

/**
 * `Short positions · Acme plc · 23 Nov 2026`: one subject per issuer per UTC day. Gmail and Outlook
 * group a conversation by its subject, so the subject must not name what changed; the first line of the
 * body does (it is the inbox preview).
 */
export function threadSubject(issuerName: string, day: string): string {
  return `Short positions · ${clipChars(issuerName, MAX_SUBJECT_NAME_CHARS)} · ${dayLabel(day)}`;
}

/**
 * `<thread.2026-11-23.<hash>@from-domain>`: the root every alert of one (channel, issuer, UTC day)
 * references. No message carries it as its own Message-ID; clients thread on the shared reference (and
 * Gmail on the subject too). The hash keeps any channel name or issuer id out of the header's syntax.
 */
export function threadRootId(channel: string, issuerId: string, day: string, from: string): string {
  const hash = createHash('sha256').update(`${channel}\u0000${issuerId}`).digest('hex').slice(0, 32);
  return `<thread.${day}.${hash}@${senderDomain(from)}>`;
}
