const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** One formatter per zone: building one costs far more than using it (an e-mail formats several dates). */
const formats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timezone: string): Intl.DateTimeFormat {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    // Only zones Intl accepted get here (it throws on others): at most the few hundred IANA names.
    formats.set(timezone, format);
  }
  return format;
}

/** Parts of an instant in a time zone, read with Intl so daylight saving is right. */
function zonedParts(date: Date, timezone: string): Record<string, string> {
  const parts = zoneFormat(timezone).formatToParts(date);
  return Object.fromEntries(parts.map((part) => [part.type, part.value]));
}

/**
 * An ISO instant as `20 Nov 07:30` (or `20 Nov 2024 07:30` with `year`) in `timezone`.
 * Month names are our own so that the output does not change with the ICU version.
 * An unparsable input is returned as it came.
 */
export function formatInstant(iso: string, timezone: string, options: { year?: boolean } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = zonedParts(date, timezone);
  const month = MONTHS[Number(parts.month) - 1] ?? '?';
  const day = `${Number(parts.day)} ${month}${options.year ? ` ${parts.year}` : ''}`;
  return `${day} ${parts.hour}:${parts.minute}`;
}

/** A period as `20 Nov 07:30 – 21 Nov 07:30 (Europe/London)`; `year` adds the years. */
export function formatPeriod(
  period: { from: string; to: string; timezone: string },
  options: { year?: boolean } = {},
): string {
  const from = formatInstant(period.from, period.timezone, options);
  const to = formatInstant(period.to, period.timezone, options);
  return `${from} – ${to} (${period.timezone})`;
}

/** The calendar day (`2026-11-28`) of an instant in `timezone`; undefined when unparsable. */
export function zonedDay(iso: string, timezone: string): string | undefined {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  const parts = zonedParts(date, timezone);
  return `${parts.year}-${parts.month?.padStart(2, '0')}-${parts.day?.padStart(2, '0')}`;
}
