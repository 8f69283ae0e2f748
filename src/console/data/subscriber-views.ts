import type { App } from '../../app.js';
import { searchNewest } from '../../record/search.js';
import { type Subscriber, subscriberChannels } from '../../routing/subscriber.js';
import { DeliveryRecord } from '../../state/delivery-record.js';
import type { OutboxCounts } from '../../state/outbox.js';
import type { AuditEntry } from '../../state/subscriber-store.js';
import { DAY_MS } from '../../time/units.js';
import { type RecordedMessage, recordedMessages } from './record-messages.js';

/** A subscriber's two outboxes summed: immediate and, when they want one, digest. */
export interface SubscriberQueue {
  /** Waiting to be sent (ready or held by quiet hours), and the one being sent. */
  queued: number;
  parked: number;
  /** Events staged for their next digest. */
  staged: number;
}

/** One row of the subscribers page. */
export interface SubscriberRow {
  subscriber: Subscriber;
  queue: SubscriberQueue;
}

/** One subscriber's page: the record, their queue, their audit trail and what they received. */
export interface SubscriberView extends SubscriberRow {
  audit: AuditEntry[];
  received: RecordedMessage[];
  /** The span of the record searched, from, to (epoch ms). */
  sinceMs: number;
  untilMs: number;
  /** The search stopped at its row budget before the span's start. */
  cut: boolean;
  /** Whether `subscribers.webhook` and `subscribers.slack` name channels: without one, that route is unused. */
  routes: { webhook: boolean; slack: boolean };
}

const RECEIVED_SPAN_MS = 30 * DAY_MS;
const RECEIVED_SHOWN = 200;
const RECORD_SCANNED = 50_000;
const AUDIT_SHOWN = 50;

function queueOf(subscriber: Subscriber, counts: ReadonlyMap<string, OutboxCounts>): SubscriberQueue {
  const queue: SubscriberQueue = { queued: 0, parked: 0, staged: 0 };
  // Every route's channel, whatever they use now: a subscriber who left `digest` may still have one queued.
  for (const channel of subscriberChannels(subscriber.id)) {
    const c = counts.get(channel);
    if (!c) continue;
    queue.queued += c.waiting + c.inflight;
    queue.parked += c.parked;
    queue.staged += c.staged;
  }
  return queue;
}

async function queues(app: App, subscribers: readonly Subscriber[]): Promise<Map<string, OutboxCounts>> {
  return app.ctx.outbox.queueCounts(subscribers.flatMap((s) => subscriberChannels(s.id)));
}

/** Whether a subscriber's name or address contains every word of `filter` (any case). */
function matches(subscriber: Subscriber, filter: string): boolean {
  const haystack = `${subscriber.name} ${subscriber.email}`.toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/u)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** Every subscriber (by name) whose name or address matches `filter`, with their queues: one pipelined read. */
export async function subscriberRows(app: App, filter: string): Promise<SubscriberRow[]> {
  const shown = (await app.ctx.subscribers.list()).filter((s) => matches(s, filter));
  const counts = await queues(app, shown);
  return shown.map((subscriber) => ({ subscriber, queue: queueOf(subscriber, counts) }));
}

/** One subscriber's view, or undefined when there is no such subscriber. */
export async function subscriberView(app: App, id: string): Promise<SubscriberView | undefined> {
  const subscriber = await app.ctx.subscribers.get(id);
  if (!subscriber) return undefined;
  const untilMs = app.ctx.now().getTime();
  const sinceMs = untilMs - RECEIVED_SPAN_MS;
  const record = new DeliveryRecord(app.redis, app.ctx.prefix);
  const [counts, audit, found] = await Promise.all([
    queues(app, [subscriber]),
    app.ctx.subscribers.audit(id, AUDIT_SHOWN),
    searchNewest(
      record,
      // Every route, whatever they use now: what they received under an earlier mode stays theirs.
      { sinceMs, untilMs, channels: subscriberChannels(id) },
      RECEIVED_SHOWN,
      RECORD_SCANNED,
    ),
  ]);
  return {
    subscriber,
    queue: queueOf(subscriber, counts),
    audit,
    received: recordedMessages(found.rows),
    sinceMs,
    untilMs,
    cut: found.cut,
    routes: {
      webhook: app.settings.config.subscribers?.webhook !== undefined,
      slack: app.settings.config.subscribers?.slack !== undefined,
    },
  };
}
