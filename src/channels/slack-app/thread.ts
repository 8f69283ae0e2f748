import { createHash } from 'node:crypto';
import type { PositionEvent } from '../../positions/types.js';
import { DAY_MS } from '../../time/units.js';
import { zonedDay } from '../time.js';

/**
 * How long after a message's newest detection its thread and its timestamps are kept: the detection's day
 * ends within a day, and a second day covers a delivery held back (quiet hours, a backlog, an outage).
 */
export const MEMORY_SPAN_MS = 2 * DAY_MS;

/** The newest detection among events (ISO), the instant a message's day and memory are measured from. */
export function newestDetection(events: readonly PositionEvent[]): string | undefined {
  return events
    .map((event) => event.detectedAt)
    .filter((at) => !Number.isNaN(Date.parse(at)))
    .sort((a, b) => Date.parse(a) - Date.parse(b))
    .at(-1);
}

/**
 * The day (`2026-11-28`, in the channel's zone) whose thread a message of events joins: that of its newest
 * detection, not of the send, so a retry after midnight joins the same thread. Undefined without events.
 */
export function threadDay(events: readonly PositionEvent[], timezone: string): string | undefined {
  const newest = newestDetection(events);
  return newest === undefined ? undefined : zonedDay(newest, timezone);
}

/** How long to keep what a message of these events left (its thread's parent, its ts): until the span ends. */
export function memoryTtlMs(events: readonly PositionEvent[], nowMs: number): number {
  const newest = newestDetection(events);
  return (newest === undefined ? nowMs : Date.parse(newest)) + MEMORY_SPAN_MS - nowMs;
}

// Issuer ids and holder keys come from upstreams: hashed, they cannot break the key's shape.
function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/** The memory key of the parent of one issuer's thread on one day in one conversation. */
export function threadKey(conversation: string, issuerId: string, day: string): string {
  return `thread:${conversation}:${day}:${digest(issuerId)}`;
}

/** The memory key of the last message that told one holder of one issuer in one conversation. */
export function toldKey(conversation: string, issuerId: string, holderKey: string): string {
  return `told:${conversation}:${digest(issuerId, holderKey)}`;
}
