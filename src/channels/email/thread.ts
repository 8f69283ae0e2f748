import { createHash } from 'node:crypto';
import type { PositionEvent } from '../../positions/types.js';
import { senderDomain } from './message-id.js';

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

/**
 * `<thread.2026-11-23.<hash>@from-domain>`: the root every alert of one (channel, issuer, UTC day)
 * references. No message carries it as its own Message-ID; clients that thread on References (Apple Mail,
 * Thunderbird, Outlook's conversations) group the day's alerts under it. Gmail also wants one subject,
 * which alerts that say what happened cannot share: there each alert stands alone. The hash keeps any channel name or issuer id out of the header's syntax.
 */
export function threadRootId(channel: string, issuerId: string, day: string, from: string): string {
  const hash = createHash('sha256').update(`${channel}\u0000${issuerId}`).digest('hex').slice(0, 32);
  return `<thread.${day}.${hash}@${senderDomain(from)}>`;
}
