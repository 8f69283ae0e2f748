import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric shortwatch exports, on a registry of its own (no globals). */
export interface Metrics {
  registry: Registry;
  upstreamRequests: Counter<'operation' | 'status'>;
  upstreamRateLimited: Counter<'window'>;
  budgetLeft: Gauge<'window'>;
  sweeps: Counter<'outcome'>;
  sweepsSkippedByGate: Counter;
  polls: Counter<'outcome'>;
  pollDuration: Histogram;
  events: Counter<'kind'>;
  deliveries: Counter<'channel' | 'outcome'>;
  queueDepth: Gauge<'queue' | 'state'>;
  lastSweepAge: Gauge;
  lastSweepAt: Gauge;
}

/** Creates the metrics on a fresh registry. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    upstreamRequests: new Counter({
      name: 'shortwatch_upstream_requests_total',
      help: 'Upstream requests by operation and HTTP status (or network/timeout).',
      labelNames: ['operation', 'status'],
      registers,
    }),
    upstreamRateLimited: new Counter({
      name: 'shortwatch_upstream_rate_limited_total',
      help: 'Upstream 429 answers by the window they named.',
      labelNames: ['window'],
      registers,
    }),
    budgetLeft: new Gauge({
      name: 'shortwatch_budget_left',
      help: 'Requests left in the current budget window.',
      labelNames: ['window'],
      registers,
    }),
    sweeps: new Counter({
      name: 'shortwatch_sweeps_total',
      help: 'Sweeps by outcome (polled, unchanged, budget, blocked, revoked, failed).',
      labelNames: ['outcome'],
      registers,
    }),
    sweepsSkippedByGate: new Counter({
      name: 'shortwatch_sweeps_skipped_by_gate_total',
      help: 'Sweeps that polled nothing because last_updated had not moved.',
      registers,
    }),
    polls: new Counter({
      name: 'shortwatch_polls_total',
      help: 'Issuer polls by outcome.',
      labelNames: ['outcome'],
      registers,
    }),
    pollDuration: new Histogram({
      name: 'shortwatch_poll_duration_seconds',
      help: 'Duration of issuer polls, from token to committed snapshot.',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    events: new Counter({
      name: 'shortwatch_events_total',
      help: 'Position events detected, by kind.',
      labelNames: ['kind'],
      registers,
    }),
    deliveries: new Counter({
      name: 'shortwatch_deliveries_total',
      help: 'Delivery attempts by channel and outcome (sent, retried, rate_limited, parked).',
      labelNames: ['channel', 'outcome'],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'shortwatch_queue_jobs',
      help: 'Jobs per queue and state.',
      labelNames: ['queue', 'state'],
      registers,
    }),
    lastSweepAge: new Gauge({
      name: 'shortwatch_last_sweep_age_seconds',
      help: 'Seconds since the last successful sweep.',
      registers,
    }),
    lastSweepAt: new Gauge({
      name: 'shortwatch_last_sweep_timestamp_seconds',
      help: 'Unix time of the last successful sweep.',
      registers,
    }),
  };
}
