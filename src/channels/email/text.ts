/** Longest subject we send; mail clients cut long ones anyway and some servers reject huge headers. */
export const MAX_SUBJECT_CHARS = 200;

/** Control characters (CR, LF, tab, C1) and Unicode line separators: never allowed inside one line. */
const LINE_BREAKERS = /[\p{Cc}\u2028\u2029]+/gu;

/** Collapses a string from outside onto one line: control characters become spaces, runs of spaces one. */
export function oneLine(value: string): string {
  return value.replace(LINE_BREAKERS, ' ').replace(/ {2,}/g, ' ').trim();
}

/** A safe subject: one line, at most {@link MAX_SUBJECT_CHARS} characters (code points), cut with `…`. */
export function toSubject(value: string): string {
  const chars = Array.from(oneLine(value));
  if (chars.length <= MAX_SUBJECT_CHARS) return chars.join('');
  return `${chars
    .slice(0, MAX_SUBJECT_CHARS - 1)
    .join('')
    .trimEnd()}…`;
}

/** `1 change`, `3 changes`. */
export function countChanges(count: number): string {
  return count === 1 ? '1 change' : `${count} changes`;
}
