import type { Scenario } from '../../src/sandbox/index.js';
import type { Random } from '../../src/sandbox/prng.js';
import type { Issuer, IssuerPosition } from '../../src/upstream/schemas.js';
import { churn } from '../lib/churn.js';
import type { PollableDataset } from './skewed-dataset.js';

/** What one simulated `GET /issuers/{id}/positions?status=active` answers. */
export interface SimResponse {
  issuer: Issuer;
  rows: IssuerPosition[];
  lastUpdated: string | null;
}

/**
 * The sandbox's dataset under a virtual clock: a seeded sandbox Scenario whose positions change by
 * `changeRate` at each refresh, with `last_updated` set to the virtual time of the refresh.
 */
export class SimDataset {
  readonly #scenario: Scenario;
  readonly #issuers: readonly Issuer[];
  readonly #ids: readonly string[];
  readonly #rng: Random;
  readonly #changeRate: number;

  constructor(scenario: Scenario, rng: Random, changeRate: number) {
    this.#scenario = scenario;
    this.#rng = rng;
    this.#changeRate = changeRate;
    // The simulation never adds or removes issuers.
    this.#issuers = scenario.issuers();
    this.#ids = this.#issuers.map((i) => i.svc_issuer_id);
  }

  /** The watched issuers: every issuer of the scenario, sorted by id. */
  issuers(): readonly Issuer[] {
    return this.#issuers;
  }

  /** Refreshes the dataset at `now` (one simulated day's changes); returns the issuers that changed. */
  refresh(now: number): string[] {
    const changed = churn(this.#scenario, this.#ids, this.#rng, this.#changeRate);
    this.#scenario.setLastUpdated(new Date(now).toISOString());
    return changed;
  }

  /** The issuer list's `last_updated`. */
  lastUpdated(): string | null {
    return this.#scenario.lastUpdated();
  }

  /** Every disclosure of an issuer (`status=all`). */
  all(issuerId: string): IssuerPosition[] {
    return this.#scenario.all(issuerId) ?? [];
  }

  /** The active rows of one issuer, as the service answers them now. */
  read(issuer: Issuer): SimResponse {
    return {
      issuer,
      rows: this.#scenario.active(issuer.svc_issuer_id) ?? [],
      lastUpdated: this.#scenario.lastUpdated(),
    };
  }
}

/**
 * The same dataset served without versions: the issuer list and every positions answer say
 * `last_updated: null` (the spec allows it), so the gate cannot see the dataset move.
 */
export function unversioned(dataset: PollableDataset): PollableDataset {
  return {
    issuers: () => dataset.issuers(),
    lastUpdated: () => null,
    read: (issuer) => ({ ...dataset.read(issuer), lastUpdated: null }),
    all: (issuerId) => dataset.all(issuerId),
  };
}
