import { createHash } from 'node:crypto';
import { senderDomain } from './message-id.js';
import { oneLine } from './text.js';

// A list-label is a dot-atom of letters, digits and hyphens here; anything else in a channel name
// becomes a hyphen, and a name with nothing usable left is replaced by a short hash.
const LABEL_MAX = 60;

/** The label part of a List-Id: the channel name as lower-case letters, digits and hyphens. */
function listLabel(channel: string): string {
  const label = channel
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, LABEL_MAX)
    .replace(/^-+|-+$/g, '');
  return label || `channel-${createHash('sha256').update(channel).digest('hex').slice(0, 12)}`;
}

/** A quoted-string (RFC 5322) of a one-line display name. */
function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

// The header goes out as prepared (not re-encoded by nodemailer), so its phrase must be plain ASCII.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * `"shortwatch: desk alerts" <desk-alerts.shortwatch.example.com>` (RFC 2919): mail rules and clients
 * file every message of one channel together, and a stable List-Id counts as a legitimate bulk sender.
 */
export function listId(channel: string, from: string): string {
  const label = listLabel(channel);
  const name = oneLine(channel);
  const phrase = PRINTABLE_ASCII.test(name) ? name : label;
  return `${quoted(`shortwatch: ${phrase}`)} <${label}.shortwatch.${senderDomain(from)}>`;
}
