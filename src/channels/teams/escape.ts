import { wellFormed } from '../../text/well-formed.js';
import { clipText, NAME_MAX } from '../format.js';

// What Adaptive Card TextBlocks give a meaning: emphasis (`*`, `_`, `~`), code, links (`[…](…)`),
// `{{DATE(…)}}`/`{{TIME(…)}}` substitution, HTML-ish tags such as `<at>` and character references (`&amp;`),
// and the backslash itself. Each is written with a backslash, which the Markdown renderer drops again.
const SPECIAL = /[\\*_~`[\]{}<>&]/g;
// A list item or heading marker is only one at the start of a text: `- x`, `+ x`, `# x`, `1. x`, `1) x`.
const LEADING_MARKER = /^(?:[-+#]|\d+(?=[.)]))/;

/**
 * Escapes text for an Adaptive Card TextBlock, whose text Teams renders as a Markdown subset, so that
 * upstream data such as a holder named `*x* [link](http://evil)` or `<at>all</at>` shows as typed and
 * links or mentions nobody. A lone UTF-16 surrogate becomes U+FFFD, as JSON parsers may refuse it.
 */
export function escapeTeams(text: string): string {
  return escapeTeamsInline(text).replace(LEADING_MARKER, (marker) =>
    /^\d/.test(marker) ? `${marker}\\` : `\\${marker}`,
  );
}

/**
 * {@link escapeTeams} for text in the middle of a line, where a list or heading marker means nothing:
 * `3.40%` after `total ` must not become `3\.40%`.
 */
export function escapeTeamsInline(text: string): string {
  return wellFormed(text).replace(SPECIAL, (char) => `\\${char}`);
}

/** Shortens raw text to at most `max` code points, ending with `…` when cut ({@link clipText}). */
export const shortenText = clipText;

/** An upstream name, shortened past {@link NAME_MAX} code points, then escaped. */
export function teamsName(raw: string): string {
  return escapeTeamsInline(shortenText(raw, NAME_MAX));
}
