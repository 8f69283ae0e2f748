import type { ChannelFilter } from '../config/schema.js';
import { HolderIdentities } from '../positions/holder-identity.js';
import { round4 } from '../positions/round.js';
import type { PositionEvent } from '../positions/types.js';
import { issuerMatches } from './match-keys.js';

/** The outcome of a channel filter on one event; a failure says which rule stopped it. */
export type FilterResult = { pass: true } | { pass: false; reason: string };

const PASS: FilterResult = { pass: true };

// Every comparison is made at 4 decimals, the diff's precision, so 0.1 + 0.2 meets a minimum of 0.3.

/** True when moving from `from` to `to` crosses `threshold` in either direction (reaching it counts). */
export function crosses(from: number, to: number, threshold: number): boolean {
  const a = round4(from);
  const b = round4(to);
  const t = round4(threshold);
  return (a < t && t <= b) || (b < t && t <= a);
}

/** The larger of the value before and after; a closed event's "after" is its final disclosure when known. */
export function peakValue(event: PositionEvent): number {
  const after = event.current ?? event.final;
  return Math.max(event.previous?.value ?? 0, after?.value ?? 0);
}

function fail(reason: string): FilterResult {
  return { pass: false, reason };
}

/** An empty list is treated like an absent one: it restricts nothing. */
function active<T>(list: readonly T[] | undefined): list is readonly T[] {
  return list !== undefined && list.length > 0;
}

function list(values: readonly (string | number)[]): string {
  return values.join(', ');
}

function checkParties(event: PositionEvent, filter: ChannelFilter, holders: HolderIdentities): FilterResult {
  if (active(filter.issuers) && !filter.issuers.some((entry) => issuerMatches(entry, event.issuer))) {
    return fail(`issuer "${event.issuer.name}" (${event.issuer.id}) not in issuers`);
  }
  if (active(filter.holders) && !filter.holders.some((entry) => holders.matches(entry, event))) {
    return fail(`holder "${event.holder}" not in holders`);
  }
  const excluded = filter.excludeHolders?.find((entry) => holders.matches(entry, event));
  if (excluded !== undefined) return fail(`holder "${event.holder}" in excludeHolders ("${excluded}")`);
  if (active(filter.kinds) && !filter.kinds.includes(event.kind)) {
    return fail(`kind ${event.kind} not in kinds (${list(filter.kinds)})`);
  }
  return PASS;
}

function checkSizes(event: PositionEvent, filter: ChannelFilter): FilterResult {
  if (filter.minValue !== undefined) {
    const peak = round4(peakValue(event));
    if (peak < round4(filter.minValue)) return fail(`value ${peak}% below minValue ${filter.minValue}`);
  }
  if (filter.minDelta !== undefined) {
    const delta = round4(Math.abs(event.delta));
    if (delta < round4(filter.minDelta)) return fail(`delta ${delta} pp below minDelta ${filter.minDelta}`);
  }
  if (active(filter.thresholds)) {
    const from = event.previous?.value ?? 0;
    const to = event.current?.value ?? 0;
    if (!filter.thresholds.some((t) => crosses(from, to, t))) {
      return fail(
        `position ${round4(from)}% → ${round4(to)}% crosses none of thresholds ${list(filter.thresholds)}`,
      );
    }
  }
  if (active(filter.issuerTotalThresholds)) {
    const { before, after } = event.issuerTotal;
    if (!filter.issuerTotalThresholds.some((t) => crosses(before, after, t))) {
      return fail(
        `issuer total ${round4(before)}% → ${round4(after)}% crosses none of issuerTotalThresholds ${list(filter.issuerTotalThresholds)}`,
      );
    }
  }
  return PASS;
}

/**
 * Applies a channel filter to one event; every configured rule must pass, the first failure is the
 * reason. `holders` entries name a holder across registers through the alias table (`holders.aliases`).
 */
export function matchFilter(
  event: PositionEvent,
  filter: ChannelFilter,
  holders: HolderIdentities = HolderIdentities.none,
): FilterResult {
  const parties = checkParties(event, filter, holders);
  return parties.pass ? checkSizes(event, filter) : parties;
}
