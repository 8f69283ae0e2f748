import { parseDuration } from '../config/duration.js';
import { DAY_MS } from '../time/units.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An instant typed by a user, as epoch ms: an ISO 8601 date-time, a date (UTC; its start, or with
 * `endOfDay` its last millisecond, so `--until 2026-11-26` takes in that day), or a duration meaning
 * that long before `nowMs` (`7d`). Undefined when it is none of these.
 */
export function parseInstant(text: string, nowMs: number, endOfDay = false): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (DATE_ONLY.test(trimmed)) {
    const start = Date.parse(`${trimmed}T00:00:00.000Z`);
    if (Number.isNaN(start)) return undefined;
    return endOfDay ? start + DAY_MS - 1 : start;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    const at = Date.parse(trimmed);
    return Number.isNaN(at) ? undefined : at;
  }
  const ago = parseDuration(trimmed);
  return ago === undefined ? undefined : nowMs - ago;
}
