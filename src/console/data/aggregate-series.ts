import { aggregateHolder } from '../../jobs/registers/aggregate-alerts.js';
import type { PositionEvent } from '../../positions/types.js';
import type { RegisterIssuer } from '../../sources/types.js';
import { dayMs, type Series, SeriesBuilder } from './holder-series.js';

/** One chart of a register issuer: the aggregate that counts from one threshold, never another. */
export interface AggregateChart {
  /** The smallest position the aggregate of this chart counts. */
  thresholdPercent: number;
  /** One line: the aggregate (a series, so that the step chart and its legend draw it). */
  series: Series[];
}

/** What the aggregate charts of one issuer in one register are drawn from. */
export interface AggregateChartInput {
  /** Logged events of this issuer in this register, in any order (all but the aggregate's own are left out). */
  events: readonly PositionEvent[];
  /** The issuer in the kept read, or undefined when the last read no longer lists it. */
  issuer?: Pick<RegisterIssuer, 'aggregate' | 'aggregateHistory'>;
  /** The register's own threshold, for a history whose issuer has no aggregate now. */
  registerThreshold?: number;
}

const KEY = 'aggregate';

/** The builders of each threshold's chart, made on first use. */
class ChartsByThreshold {
  readonly #charts = new Map<number, SeriesBuilder>();

  /** Adds a value of the aggregate from `threshold` on `date`; a later value of one date replaces an earlier. */
  add(threshold: number, date: string, value: number): void {
    this.#at(threshold).add(KEY, aggregateHolder(threshold), dayMs(date), value);
  }

  /** The aggregate from `threshold` stopped being published after its value on `date`: its line ends there. */
  end(threshold: number, date: string, value: number): void {
    this.#at(threshold).leave(KEY, aggregateHolder(threshold), dayMs(date), value);
  }

  build(current: { threshold: number; value: number } | undefined): AggregateChart[] {
    return [...this.#charts]
      .sort(([a], [b]) => a - b)
      .map(([thresholdPercent, builder]) => {
        const now = new Map<string, number>(
          current?.threshold === thresholdPercent ? [[KEY, current.value]] : [],
        );
        return { thresholdPercent, series: builder.build(now) };
      });
  }

  #at(threshold: number): SeriesBuilder {
    let builder = this.#charts.get(threshold);
    if (!builder) {
      builder = new SeriesBuilder();
      this.#charts.set(threshold, builder);
    }
    return builder;
  }
}

/** The kept history (a historic file's past values): a value of 0 is no aggregate, so the line ends before it. */
function addHistory(charts: ChartsByThreshold, input: AggregateChartInput): void {
  const threshold = input.issuer?.aggregate?.thresholdPercent ?? input.registerThreshold;
  const points = [...(input.issuer?.aggregateHistory ?? [])].sort((a, b) => a.date.localeCompare(b.date));
  if (threshold === undefined) return;
  let previous: { date: string; percent: number } | undefined;
  for (const point of points) {
    if (point.percent > 0) {
      charts.add(threshold, point.date, point.percent);
      previous = point;
    } else if (previous) {
      charts.end(threshold, previous.date, previous.percent);
      previous = undefined;
    }
  }
}

/**
 * One logged event as points of its threshold's chart: the aggregate's own events only (entered, moved,
 * crossed, revised, ended). What lies below the public threshold is another quantity (its values carry the
 * read's date, not a position date), and scope and named holders' events carry no aggregate.
 */
function addEvent(charts: ChartsByThreshold, event: PositionEvent): void {
  const facts = event.aggregate;
  const threshold = facts?.thresholdPercent;
  if (!facts || threshold === undefined || facts.kind === 'below-threshold-moved') return;
  if (facts.kind === 'aggregate-ended') {
    // No longer published: the positions it counted are under its threshold, not at 0. The line ends.
    if (event.previous) charts.end(threshold, event.previous.date, event.previous.value);
    return;
  }
  // A revision's two values share its date: the later (revised) one replaces the earlier there.
  for (const d of [event.previous, event.current]) if (d) charts.add(threshold, d.date, d.value);
}

/**
 * The aggregate charts of one issuer in one register, one per threshold the aggregate counts from: a
 * register that moved its threshold, or events logged under another, give a second chart, never a line
 * joining a 0.1% sum to a 0.5% one. Drawn from the kept history, the logged aggregate events (oldest
 * first) and the kept read's value now; each value holds until the next, and a line ends where the
 * aggregate stopped being published. Pure.
 */
export function aggregateCharts(input: AggregateChartInput): AggregateChart[] {
  const charts = new ChartsByThreshold();
  addHistory(charts, input);
  const oldestFirst = [...input.events].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
  for (const event of oldestFirst) addEvent(charts, event);
  const aggregate = input.issuer?.aggregate;
  if (aggregate) charts.add(aggregate.thresholdPercent, aggregate.date, aggregate.percent);
  return charts.build(aggregate && { threshold: aggregate.thresholdPercent, value: aggregate.percent });
}
