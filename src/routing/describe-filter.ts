import type { ChannelFilter } from '../config/schema.js';

const percentList = (values: readonly number[]) => values.map((v) => `${v}%`).join(', ');

/** A channel's filter in words: `every change`, or its rules joined by `; `. */
export function describeFilter(filter: ChannelFilter): string {
  const rules = [
    filter.issuers && `issuers ${filter.issuers.join(', ')}`,
    filter.holders && `holders ${filter.holders.join(', ')}`,
    filter.excludeHolders && `not ${filter.excludeHolders.join(', ')}`,
    filter.kinds && `${filter.kinds.join('/')} only`,
    filter.minValue !== undefined && `positions of ${filter.minValue}% or more`,
    filter.minDelta !== undefined && `moves of ${filter.minDelta} pp or more`,
    filter.thresholds && `changes crossing ${percentList(filter.thresholds)}`,
    filter.issuerTotalThresholds && `issuer totals crossing ${percentList(filter.issuerTotalThresholds)}`,
  ].filter((rule): rule is string => typeof rule === 'string');
  return rules.length > 0 ? rules.join('; ') : 'every change';
}
