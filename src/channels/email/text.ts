import { clipText, displayText } from '../format.js';

/** Longest subject we send; mail clients cut long ones anyway and some servers reject huge headers. */
export const MAX_SUBJECT_CHARS = 200;

/** Longest upstream name in a subject, so that the verb, the other name and the value stay visible. */
export const MAX_SUBJECT_NAME_CHARS = 120;

/**
 * Collapses a string onto one line, the way every renderer shows outside text ({@link displayText}):
 * a header line such as the subject must never carry CR or LF.
 */
export function oneLine(value: string): string {
  return displayText(value);
}

/** At most `max` code points, cut with `…` ({@link clipText}). */
export const clipChars = clipText;

/** A safe subject: one line, at most {@link MAX_SUBJECT_CHARS} characters (code points), cut with `…`. */
export function toSubject(value: string): string {
  return clipChars(oneLine(value), MAX_SUBJECT_CHARS);
}

/** `1 change`, `3 changes`. */
export function countChanges(count: number): string {
  return count === 1 ? '1 change' : `${count} changes`;
}
