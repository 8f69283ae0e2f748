const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const DAY = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';
const LONG_DAY = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

// The three HTTP-date forms of RFC 9110 §5.6.7; Date.parse alone accepts far too much ("2", "soon 5").
const IMF_FIXDATE = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:${LONG_DAY}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:${DAY}) (${MONTH}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

interface DateParts {
  year: number;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

/**
 * Milliseconds to wait from a `Retry-After` header (delta-seconds or HTTP-date), measured from `nowMs`.
 * An HTTP-date is measured from the response's own `Date` header when it has a valid one: both are the
 * server's clock, so a host whose clock is off still waits the right time.
 * `undefined` when absent, ambiguous (several different values), malformed or in the past.
 */
export function parseRetryAfter(
  header: string | string[] | undefined,
  nowMs: number,
  dateHeader?: string | string[],
): number | undefined {
  const value = singleValue(header);
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) {
    const ms = Number(value) * 1000;
    return Number.isSafeInteger(ms) ? ms : undefined;
  }
  const at = parseHttpDate(value, nowMs);
  const date = singleValue(dateHeader);
  const from = (date === undefined ? undefined : parseHttpDate(date, nowMs)) ?? nowMs;
  if (at === undefined || at < from) return undefined;
  return at - from;
}

function singleValue(header: string | string[] | undefined): string | undefined {
  const values = (Array.isArray(header) ? header : [header]).flatMap((v) =>
    v === undefined ? [] : [v.trim()],
  );
  const first = values[0];
  if (!first || values.some((v) => v !== first)) return undefined;
  return first;
}

/** Epoch ms of an HTTP-date, or `undefined`. */
function parseHttpDate(text: string, nowMs: number): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    const [, day = '', month = '', year = '', hour = '', minute = '', second = ''] = match;
    return toEpoch({ year: Number(year), month, day, hour, minute, second });
  }
  match = RFC850_DATE.exec(text);
  if (match) {
    const [, day = '', month = '', yy = '', hour = '', minute = '', second = ''] = match;
    return toEpoch({ year: fullYear(Number(yy), nowMs), month, day, hour, minute, second });
  }
  match = ASCTIME_DATE.exec(text);
  if (match) {
    const [, month = '', day = '', hour = '', minute = '', second = '', year = ''] = match;
    return toEpoch({ year: Number(year), month, day: day.trim(), hour, minute, second });
  }
  return undefined;
}

// RFC 9110: a two-digit year more than 50 years ahead is in the past century.
function fullYear(yy: number, nowMs: number): number {
  const thisYear = new Date(nowMs).getUTCFullYear();
  const candidate = Math.floor(thisYear / 100) * 100 + yy;
  return candidate > thisYear + 50 ? candidate - 100 : candidate;
}

function toEpoch(parts: DateParts): number | undefined {
  const month = MONTHS.indexOf(parts.month);
  const [day, hour, minute, second] = [parts.day, parts.hour, parts.minute, parts.second].map(Number);
  if (day === undefined || hour === undefined || minute === undefined || second === undefined)
    return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const at = Date.UTC(parts.year, month, day, hour, minute, Math.min(second, 59));
  // Date.UTC rolls 31 Feb over into March: reject dates that do not exist.
  const check = new Date(at);
  if (check.getUTCMonth() !== month || check.getUTCDate() !== day) return undefined;
  return at;
}
