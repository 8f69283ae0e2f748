import { round4 } from '../positions/round.js';
import type { EventKind, PositionEvent } from '../positions/types.js';
import { wellFormed } from '../text/well-formed.js';
import type { IssuerRef, Message, NoticeMessage } from './types.js';

// Characters that separate words on a line or start a new one: they become a space, so that
// `Evil\nFake` stays two words on one line. Tab, LF, VT, FF, CR, NEL, LINE and PARAGRAPH SEPARATOR.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/gu;
// Every other C0 and C1 control (`\p{Cc}`: ESC starts terminal sequences, NUL truncates in C code) and
// every bidi control: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, marks LRM, RLM, ALM.
// A name reversing the text after it could make "0.5%" read "%5.0" or swap who did what.
const INVISIBLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/gu;
// What JSON.stringify leaves raw of the two sets above (it escapes C0 controls itself).
const JSON_RAW_INVISIBLE = new RegExp(`${BREAKS.source}|${INVISIBLE.source}`, 'gu');

/**
 * An outside string (a holder or issuer name) as it may be shown: one line, no control or bidi
 * character, runs of whitespace as one space, trimmed; a lone surrogate becomes U+FFFD. Only for display:
 * identity (`holderKey`) and stored snapshots keep the upstream's exact value.
 */
export function displayText(raw: string): string {
  return wellFormed(raw).replace(BREAKS, ' ').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

/** An event whose holder and issuer are made displayable ({@link displayText}). */
export function displayEvent(event: PositionEvent): PositionEvent {
  return { ...event, holder: displayText(event.holder), issuer: displayIssuer(event.issuer) };
}

function displayIssuer<T extends IssuerRef>(issuer: T): T {
  return { ...issuer, id: displayText(issuer.id), name: displayText(issuer.name) };
}

/** A notice: its title on one line; its text keeps shortwatch's own line breaks, each line cleaned. */
export function displayNotice(message: NoticeMessage): NoticeMessage {
  const text = message.text.split('\n').map(displayText).join('\n');
  return { ...message, title: displayText(message.title), text };
}

/**
 * The message with every upstream string it shows made displayable: the one step every text renderer
 * (Slack, e-mail) takes first, so no renderer can forget it. Notice texts are cleaned line by line.
 */
export function displayMessage(message: Message): Message {
  switch (message.type) {
    case 'events':
      return { ...message, issuer: displayIssuer(message.issuer), events: message.events.map(displayEvent) };
    case 'batch':
      return {
        ...message,
        groups: message.groups.map((group) => ({
          issuer: displayIssuer(group.issuer),
          events: group.events.map(displayEvent),
        })),
      };
    case 'digest':
      return { ...message, events: message.events.map(displayEvent) };
    case 'notice':
      return displayNotice(message);
    case 'test':
      return message;
  }
}

/**
 * The message as the JSON channels (webhook, console) carry it: names are data there, so `holder` and
 * `issuer` keep the upstream's exact value for receivers to match on; a notice's title and text are
 * display text and are cleaned as in every channel.
 */
export function jsonChannelMessage(message: Message): Message {
  return message.type === 'notice' ? displayNotice(message) : message;
}

/**
 * JSON text in which every control and bidi character is written as a `\uXXXX` escape: the parsed value
 * is unchanged, but no raw U+202E or C1 control reaches a terminal or log viewer showing the line.
 * (JSON.stringify escapes C0 controls itself but writes U+007F–U+009F, U+2028 and bidi controls as is.)
 */
export function stringifyVisible(value: unknown): string {
  return JSON.stringify(value).replace(
    JSON_RAW_INVISIBLE,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

/** `1.2` → `1.20%`, `0.495` → `0.495%`, `19.739999999999998` → `19.74%`. */
export function formatPercent(value: number): string {
  const fixed = round4(value)
    .toFixed(4)
    .replace(/0{1,2}$/, '');
  return `${fixed}%`;
}

/** Signed change in percentage points: `+0.12 pp`, `-0.05 pp`. */
export function formatDelta(delta: number): string {
  const rounded = round4(delta);
  const sign = rounded > 0 ? '+' : rounded < 0 ? '-' : '±';
  return `${sign}${formatPercent(Math.abs(rounded)).slice(0, -1)} pp`;
}

/** The verb a trader reads for each kind. */
export const KIND_VERB: Record<EventKind, string> = {
  opened: 'opened',
  increased: 'raised',
  decreased: 'cut',
  closed: 'closed',
};

/** Longest upstream name a chat line shows: far beyond any real legal name, so one event always fits a part. */
export const NAME_MAX = 600;

/** At most `max` code points, cut with `…` (never inside a code point; spaces before the cut dropped). */
export function clipText(value: string, max: number): string {
  const chars = Array.from(value);
  if (chars.length <= max) return value;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}
