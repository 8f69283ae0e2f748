import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric shortwatch exports, on a registry of its own (no globals). */
export interface Metrics {
  registry: Registry;
  upstreamRequests: Counter<'operation' | 'status'>;
  upstreamRateLimited: Counter<'window'>;
  upstreamInvalidBodies: Counter<'operation'>;
  budgetLeft: Gauge<'window'>;
  sweeps: Counter<'outcome'>;
  sweepsSkippedByGate: Counter;
  polls: Counter<'outcome'>;
  pollFailures: Counter<'cause'>;
  closeConfirmations: Counter<'result'>;
  issuersOverdue: Gauge;
  pollDuration: Histogram;
  events: Counter<'kind'>;
  deliveries: Counter<'channel' | 'outcome'>;
  queueDepth: Gauge<'queue' | 'state'>;
  lastSweepAge: Gauge;
  lastSweepAt: Gauge;
  channelOldestUndelivered: Gauge<'channel'>;
  noticeActive: Gauge<'notice' | 'severity'>;
  subscribers: Gauge<'state'>;
  subscriberOutboxItems: Gauge<'state'>;
  subscriberOutboxesWithWork: Gauge;
  subscriberOldestUndelivered: Gauge;
  eventLoopDelayMax: Gauge;
}

/** Creates the metrics on a fresh registry (in the order `/metrics` lists them). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    ...upstreamMetrics(registers),
    ...pollingMetrics(registers),
    ...outputMetrics(registers),
    ...subscriberMetrics(registers),
    ...processMetrics(registers),
  };
}

/** This process's own health: its event loop's delays since its daemon started (telemetry/event-loop-delay.ts). */
function processMetrics(registers: Registers) {
  return {
    eventLoopDelayMax: new Gauge({
      name: 'shortwatch_event_loop_delay_max_seconds',
      help: 'Longest event-loop delay of this process since its daemon started: synchronous work that held the loop (a parse, a large JSON.parse) shows as long as it ran; a machine short of CPU adds little. Unset in a process that runs no daemon.',
      registers,
    }),
  };
}

/** Subscribers and their outboxes, summed (never one series per subscriber). */
function subscriberMetrics(registers: Registers) {
  return {
    subscribers: new Gauge({
      name: 'shortwatch_subscribers',
      help: 'Subscribers by state (active, paused, unsubscribed) and those on a digest (digest).',
      labelNames: ['state'],
      registers,
    }),
    subscriberOutboxItems: new Gauge({
      name: 'shortwatch_subscriber_outbox_items',
      help: "Items in every subscriber's outboxes by state: ready, held (quiet hours), sending, parked, staged (for a digest).",
      labelNames: ['state'],
      registers,
    }),
    subscriberOutboxesWithWork: new Gauge({
      name: 'shortwatch_subscriber_outboxes_with_work',
      help: "Subscribers' outboxes with something to send or waiting to be sent.",
      registers,
    }),
    subscriberOldestUndelivered: new Gauge({
      name: 'shortwatch_subscriber_oldest_undelivered_seconds',
      help: "Age of the oldest undelivered message over every subscriber's outbox; 0 when none.",
      registers,
    }),
  };
}

type Registers = Registry[];

/** The upstream's answers and the budget left. */
function upstreamMetrics(registers: Registers) {
  return {
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
    upstreamInvalidBodies: new Counter({
      name: 'shortwatch_upstream_invalid_bodies_total',
      help: 'Upstream 2xx answers whose body was not JSON or broke the schema (also counted by status in shortwatch_upstream_requests_total).',
      labelNames: ['operation'],
      registers,
    }),
    budgetLeft: new Gauge({
      name: 'shortwatch_budget_left',
      help: 'Requests left in the current budget window.',
      labelNames: ['window'],
      registers,
    }),
  };
}

/** Sweeps, polls and the events they found. */
function pollingMetrics(registers: Registers) {
  return {
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
      help: 'Issuer polls by outcome (changed, unchanged, baseline, current, missing, revoked, failed).',
      labelNames: ['outcome'],
      registers,
    }),
    pollFailures: new Counter({
      name: 'shortwatch_poll_failures_total',
      help: 'Failed polls by cause: transport (server, timeout, network, bad-request, unexpected-status), body (schema, too-large) or plausibility (wrong-issuer, status-echo, backwards, partial), apart from the HTTP status.',
      labelNames: ['cause'],
      registers,
    }),
    closeConfirmations: new Counter({
      name: 'shortwatch_close_confirmations_total',
      help: 'Mass closes checked by a second request, by result (confirmed, refuted).',
      labelNames: ['result'],
      registers,
    }),
    issuersOverdue: new Gauge({
      name: 'shortwatch_issuers_overdue',
      help: 'Watched issuers due for a poll longer than poll.overdueAfter without a successful one.',
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
  };
}

/** Deliveries and the queues' and sweep's gauges. */
function outputMetrics(registers: Registers) {
  return {
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
    channelOldestUndelivered: new Gauge({
      name: 'shortwatch_channel_oldest_undelivered_seconds',
      help: "Age of each channel's oldest undelivered message (ready and waiting, or in flight); 0 when none. Past delivery.stalledAfter the channel is stalled.",
      labelNames: ['channel'],
      registers,
    }),
    noticeActive: new Gauge({
      name: 'shortwatch_notice_active',
      help: 'One series per operator notice going on now, valued 1 (a cleared notice leaves the scrape).',
      labelNames: ['notice', 'severity'],
      registers,
    }),
  };
}
