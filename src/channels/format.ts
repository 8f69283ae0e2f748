import type { EventKind, PositionEvent } from '../positions/types.js';

/** Rounds a percentage to 4 decimals, the precision at which values are compared. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
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

/** One plain-text sentence that states an event's facts; the base of every renderer's wording. */
export function describeEvent(event: PositionEvent): string {
  const { holder, issuer, previous, current } = event;
  switch (event.kind) {
    case 'opened':
      return `${holder} opened a short in ${issuer.name}: ${formatPercent(current?.value ?? 0)} (${current?.date ?? '?'})`;
    case 'increased':
    case 'decreased':
      return `${holder} ${KIND_VERB[event.kind]} its short in ${issuer.name} to ${formatPercent(current?.value ?? 0)} (${formatDelta(event.delta)}, from ${formatPercent(previous?.value ?? 0)}; ${current?.date ?? '?'})`;
    case 'closed':
      return `${holder}'s short in ${issuer.name} fell below the 0.5% public disclosure threshold (${closedDetail(event)})`;
  }
}

/** What is known of a closed position's end: the last disclosed value, or the last one seen active. */
export function closedDetail(event: PositionEvent): string {
  if (event.final) return `last disclosed ${formatPercent(event.final.value)} on ${event.final.date}`;
  return `last seen at ${formatPercent(event.previous?.value ?? 0)} on ${event.previous?.date ?? '?'}`;
}
