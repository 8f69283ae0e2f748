import { round2 } from '../../src/positions/round.js';
import type { Scenario } from '../../src/sandbox/index.js';
import { HOLDER_NAMES } from '../../src/sandbox/names.js';
import type { Random } from '../../src/sandbox/prng.js';
import { issuerChangeRate } from '../../src/sandbox/register-shape.js';
import type { Issuer, IssuerPosition } from '../../src/upstream/schemas.js';
import type { SimResponse } from './dataset.js';

const DAY_MS = 86_400_000;

/** What a simulated poller reads: the issuer list, its `last_updated`, one issuer's active rows and history. */
export interface PollableDataset {
  issuers(): readonly Issuer[];
  lastUpdated(): string | null;
  read(issuer: Issuer): SimResponse;
  /** Every disclosure of an issuer (`status=all`). */
  all(issuerId: string): IssuerPosition[];
}

/**
 * A register whose issuers change at their own rates, drawn from the log-normal fitted to a real
 * register (src/sandbox/register-shape.ts, `issuerChangeRate`). The busiest rates go to the issuers
 * listing the most holders (rank-coupled, with noise), as crowded names are the busiest. Each change
 * is one disclosure (a move, an open, or a close), dated the day it is published, so an issuer's
 * active rows carry the dates of its recent changes as a real register's do.
 */
export class SkewedDataset implements PollableDataset {
  readonly #scenario: Scenario;
  readonly #issuers: readonly Issuer[];
  readonly #rng: Random;
  /** Changes a business day, by issuer id. */
  readonly rates: ReadonlyMap<string, number>;

  constructor(scenario: Scenario, rng: Random) {
    this.#scenario = scenario;
    this.#rng = rng;
    this.#issuers = scenario.issuers();
    const byHolders = this.#issuers
      .map((issuer) => ({
        id: issuer.svc_issuer_id,
        key: (scenario.active(issuer.svc_issuer_id)?.length ?? 0) + 3 * rng.next(),
      }))
      .sort((a, b) => b.key - a.key);
    const rates = this.#issuers.map(() => issuerChangeRate(rng)).sort((a, b) => b - a);
    this.rates = new Map(byHolders.map((entry, i) => [entry.id, rates[i] ?? 0]));
  }

  issuers(): readonly Issuer[] {
    return this.#issuers;
  }

  lastUpdated(): string | null {
    return this.#scenario.lastUpdated();
  }

  read(issuer: Issuer): SimResponse {
    return {
      issuer,
      rows: this.#scenario.active(issuer.svc_issuer_id) ?? [],
      lastUpdated: this.#scenario.lastUpdated(),
    };
  }

  /** Every disclosure of an issuer (`status=all`). */
  all(issuerId: string): IssuerPosition[] {
    return this.#scenario.all(issuerId) ?? [];
  }

  /**
   * `days` business days of changes before the run, dated in the past and published at once, so the
   * registers' dates and histories already reflect each issuer's rate when polling starts.
   */
  warmUp(start: number, days: number): void {
    for (let d = days; d >= 1; d--) this.#changeAll(isoDate(start - Math.ceil((d * 7) / 5) * DAY_MS), 1);
    this.#scenario.setLastUpdated(new Date(start).toISOString());
  }

  /** A publication at `now` carrying `weight` of a business day's changes; returns the changed issuers. */
  refresh(now: number, weight = 1): string[] {
    const changed = this.#changeAll(isoDate(now), weight);
    this.#scenario.setLastUpdated(new Date(now).toISOString());
    return changed;
  }

  #changeAll(date: string, weight: number): string[] {
    const changed: string[] = [];
    for (const issuer of this.#issuers) {
      const id = issuer.svc_issuer_id;
      const rate = this.rates.get(id) ?? 0;
      if (this.#rng.next() < 1 - Math.exp(-rate * weight)) {
        this.#change(id, date);
        changed.push(id);
      }
    }
    return changed;
  }

  /** One disclosure: a new holder (always on an issuer listing none), a close, or a move of 0.01-0.3. */
  #change(issuerId: string, date: string): void {
    const rng = this.#rng;
    const rows = this.#scenario.active(issuerId) ?? [];
    const row = rng.pick(rows);
    const roll = rng.next();
    if (!row || roll < 0.2) {
      const listed = new Set(rows.map((r) => r.position_holder));
      const holder = rng.pick(HOLDER_NAMES.filter((name) => !listed.has(name)));
      if (holder !== undefined)
        this.#scenario.disclose(issuerId, holder, round2(0.5 + rng.next() * 1.5), date);
    } else if (roll < 0.4) {
      this.#scenario.disclose(issuerId, row.position_holder, round2(0.3 + rng.next() * 0.19), date);
      this.#scenario.drop(issuerId, row.position_holder);
    } else {
      const step = round2((rng.next() - 0.5) * 0.6) || 0.01;
      this.#scenario.disclose(issuerId, row.position_holder, Math.max(0.5, round2(row.value + step)), date);
    }
  }
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
