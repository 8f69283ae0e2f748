// A lone UTF-16 surrogate is valid in a JS string but not in UTF-8: Redis, JSON consumers, Slack and
// encodeURIComponent may refuse it. Replacing it with U+FFFD (what String#toWellFormed does; kept here
// for Node 20's lib types) at the upstream edge means no later stage ever sees one; the channels' escapers
// and the URL encoder use it again for text that came another way (a config, a typed name).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with every lone surrogate replaced by U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}
