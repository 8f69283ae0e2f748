import { thresholdList } from '../channels/event-story.js';
import { displayText, formatDelta, formatPercent } from '../channels/format.js';

export { displayText, formatDelta, formatPercent };

/** The threshold an aggregate counts from as its name writes it: `0.1%`, never `0.10%`. */
export function formatThreshold(percent: number): string {
  return thresholdList([percent]);
}

/** An instant as `2026-01-05 14:03:22 UTC`; `never` for null. */
export function formatTime(at: string | number | null | undefined): string {
  if (at === null || at === undefined || at === '') return 'never';
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return String(at);
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** How long ago `at` was, roughly: `12 s ago`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAge(at: string | number | null | undefined, nowMs: number): string {
  if (at === null || at === undefined || at === '') return '';
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return '';
  const s = Math.round((nowMs - ms) / 1000);
  if (s < 0) return `in ${formatSpan(-s)}`;
  return `${formatSpan(s)} ago`;
}

function formatSpan(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-GB');
}

/**
 * A register's URL as a page may show it: scheme, host and path. Credentials and the query are left
 * out (`?…` marks a query): `url` may carry an access token interpolated from a secret.
 */
export function formatSourceUrl(url: string): string {
  if (!URL.canParse(url)) return '';
  const { origin, pathname, search } = new URL(url);
  return `${origin}${pathname}${search === '' ? '' : '?…'}`;
}
