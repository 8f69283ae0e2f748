import type { AggregateEventsConfig } from '../config/schema/sources.js';
import { round4 } from '../positions/round.js';
import type { AggregateEvent, AggregateIssuerRef, AggregateValue } from './aggregate-events.js';
import type { AggregatePoint, IssuerAggregate, RegisterIssuer, RegisterSnapshot } from './types.js';

/** The public threshold of named positions in every register that names them (ESMA's 0.5%). */
const NAMED_THRESHOLD = 0.5;

/**
 * The aggregate events between two reads of one register: per issuer (matched by key) entered, ended,
 * changed, crossed, revised and below-threshold moves; for a scope list, shares added and removed.
 * Pure: the same two snapshots give the same events, in issuer-key order.
 */
export function diffAggregates(
  before: RegisterSnapshot,
  after: RegisterSnapshot,
  config: AggregateEventsConfig,
): AggregateEvent[] {
  if (after.content === 'scope') return diffScope(before, after);
  const old = new Map(before.issuers.map((issuer) => [issuer.key, issuer]));
  const keys = new Set([...old.keys(), ...after.issuers.map((issuer) => issuer.key)]);
  const now = new Map(after.issuers.map((issuer) => [issuer.key, issuer]));
  return [...keys]
    .sort()
    .flatMap((key) => diffIssuerAggregate(old.get(key), now.get(key), { before, after, config }));
}

/** The events of one issuer between two reads (either side may lack the issuer). */
export function diffIssuerAggregate(
  was: RegisterIssuer | undefined,
  is: RegisterIssuer | undefined,
  ctx: { before: RegisterSnapshot; after: RegisterSnapshot; config: AggregateEventsConfig },
): AggregateEvent[] {
  const subject = is ?? was;
  if (subject === undefined) return [];
  const issuer = refOf(ctx.after.kind, subject);
  const events = valueEvents(issuer, was?.aggregate, is?.aggregate, ctx.config);
  const threshold = is?.aggregate?.thresholdPercent ?? ctx.after.aggregateThreshold;
  if (threshold !== undefined) events.push(...revisions(issuer, was, is, threshold));
  if (ctx.before.namesHolders && ctx.after.namesHolders && was && is) {
    events.push(...belowThreshold(issuer, was, is, ctx.config));
  }
  return events;
}

function valueEvents(
  issuer: AggregateIssuerRef,
  was: IssuerAggregate | undefined,
  is: IssuerAggregate | undefined,
  config: AggregateEventsConfig,
): AggregateEvent[] {
  // Sums from different thresholds are different series: an end and a start, never a change.
  if (was && is && was.thresholdPercent !== is.thresholdPercent) {
    return [...valueEvents(issuer, was, undefined, config), ...valueEvents(issuer, undefined, is, config)];
  }
  if (!was && is)
    return [{ kind: 'aggregate-entered', issuer, thresholdPercent: is.thresholdPercent, to: value(is) }];
  if (was && !is)
    return [{ kind: 'aggregate-ended', issuer, thresholdPercent: was.thresholdPercent, from: value(was) }];
  if (!was || !is) return [];
  const changePp = round4(is.percent - was.percent);
  if (changePp === 0 || Math.abs(changePp) < config.minChange) return [];
  const base = { issuer, thresholdPercent: is.thresholdPercent, from: value(was), to: value(is) };
  const events: AggregateEvent[] = [{ kind: 'aggregate-changed', ...base, changePp }];
  for (const level of [...config.levels].sort((a, b) => a - b)) {
    if (was.percent < level && is.percent >= level)
      events.push({ kind: 'aggregate-crossed', ...base, level, direction: 'up' });
    if (was.percent >= level && is.percent < level)
      events.push({ kind: 'aggregate-crossed', ...base, level, direction: 'down' });
  }
  return events;
}

function revisions(
  issuer: AggregateIssuerRef,
  was: RegisterIssuer | undefined,
  is: RegisterIssuer | undefined,
  thresholdPercent: number,
): AggregateEvent[] {
  const old = new Map(keyedPoints(was?.aggregateHistory ?? []));
  const events: AggregateEvent[] = [];
  for (const [key, point] of keyedPoints(is?.aggregateHistory ?? [])) {
    const fromPercent = old.get(key)?.percent;
    if (fromPercent === undefined || fromPercent === point.percent) continue;
    const changePp = round4(point.percent - fromPercent);
    events.push({
      kind: 'aggregate-revised',
      issuer,
      thresholdPercent,
      date: point.date,
      fromPercent,
      toPercent: point.percent,
      changePp,
    });
  }
  return events;
}

/**
 * Each point under its row's identity: its date, when it ended, and its place among the rows sharing
 * both. Keyed by date alone, a file listing one date twice compared its first row with its last and
 * told a revision on every read.
 */
function keyedPoints(points: readonly AggregatePoint[]): [string, AggregatePoint][] {
  const seen = new Map<string, number>();
  return points.map((point) => {
    const row = `${point.date}|${point.endedOn ?? ''}`;
    const nth = seen.get(row) ?? 0;
    seen.set(row, nth + 1);
    return [`${row}|${nth}`, point];
  });
}

function belowThreshold(
  issuer: AggregateIssuerRef,
  was: RegisterIssuer,
  is: RegisterIssuer,
  config: AggregateEventsConfig,
): AggregateEvent[] {
  const before = hidden(was);
  const after = hidden(is);
  if (before === undefined || after === undefined || !is.aggregate) return [];
  // With no named position on either read the hidden interest is the aggregate: its own events tell it.
  if (before.named === 0 && after.named === 0) return [];
  if (was.aggregate?.thresholdPercent !== is.aggregate.thresholdPercent) return [];
  const changePp = round4(after.hidden - before.hidden);
  if (changePp === 0 || Math.abs(changePp) < config.belowThresholdMove) return [];
  return [
    {
      kind: 'below-threshold-moved',
      issuer,
      thresholdPercent: is.aggregate.thresholdPercent,
      fromPercent: before.hidden,
      toPercent: after.hidden,
      changePp,
      aggregatePercent: is.aggregate.percent,
      namedPercent: after.named,
      namedFromPercent: NAMED_THRESHOLD,
    },
  ];
}

/**
 * Aggregate minus the named positions (with those in the company's other shares). Floored at 0: an aggregate published on an older date than
 * the positions can sum to less than they do, and a negative hidden interest means nothing.
 */
export function hidden(issuer: RegisterIssuer): { hidden: number; named: number } | undefined {
  if (!issuer.aggregate) return undefined;
  const here = issuer.positions.reduce((sum, position) => sum + position.percent, 0);
  const named = round4(here + (issuer.namedElsewhere ?? 0));
  return { hidden: Math.max(0, round4(issuer.aggregate.percent - named)), named };
}

function diffScope(before: RegisterSnapshot, after: RegisterSnapshot): AggregateEvent[] {
  const was = new Set(before.issuers.map((issuer) => issuer.key));
  const is = new Set(after.issuers.map((issuer) => issuer.key));
  const added = after.issuers.filter((issuer) => !was.has(issuer.key));
  const removed = before.issuers.filter((issuer) => !is.has(issuer.key));
  return [
    ...added.map((issuer): AggregateEvent => ({ kind: 'scope-added', issuer: refOf(after.kind, issuer) })),
    ...removed.map(
      (issuer): AggregateEvent => ({ kind: 'scope-removed', issuer: refOf(after.kind, issuer) }),
    ),
  ].sort((a, b) => a.issuer.key.localeCompare(b.issuer.key));
}

function refOf(register: RegisterSnapshot['kind'], issuer: RegisterIssuer): AggregateIssuerRef {
  const ref: AggregateIssuerRef = { register, key: issuer.key, name: issuer.name };
  if (issuer.isin !== undefined) ref.isin = issuer.isin;
  if (issuer.lei !== undefined) ref.lei = issuer.lei;
  if (issuer.otherIsins !== undefined) ref.otherIsins = issuer.otherIsins;
  return ref;
}

function value(aggregate: IssuerAggregate): AggregateValue {
  return { percent: aggregate.percent, date: aggregate.date };
}
