import { wellFormed } from '../../text/well-formed.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Escapes the three characters Slack treats as control in mrkdwn and message text (`&`, `<`, `>`), so
 * upstream data such as a holder named `<!channel>` shows as text and pings nobody. A lone UTF-16
 * surrogate becomes U+FFFD: it is not Unicode, and a JSON parser may reject the whole payload for it.
 */
export function escapeMrkdwn(text: string): string {
  return wellFormed(text).replace(/[&<>]/g, (char) => ENTITIES[char] ?? char);
}

/**
 * Shortens raw text so that its escaped form is at most `max` characters, ending with `…` when cut.
 * Cuts between code points, so neither an emoji nor an escape entity is split.
 */
export function shortenForEscaped(raw: string, max: number): string {
  if (escapeMrkdwn(raw).length <= max) return raw;
  let kept = '';
  let length = 0;
  for (const char of raw) {
    const cost = escapeMrkdwn(char).length;
    // One character is kept free for the ellipsis.
    if (length + cost > max - 1) break;
    kept += char;
    length += cost;
  }
  return `${kept.trimEnd()}…`;
}
