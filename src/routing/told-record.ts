import type { HolderMemory, PositionEvent } from '../positions/types.js';
import type { RouteVerdict } from './route.js';

/** Verdicts under which a channel takes the event: now, later, or in a digest. */
const TAKEN: ReadonlySet<RouteVerdict['verdict']> = new Set(['send', 'defer', 'stage']);

/**
 * The holders' memory with, on each fall below the threshold of this poll, the channels that took it:
 * what each channel was told, so the later confirmed close is skipped only where the fall was told. The
 * record lives until the position closes or reopens (`tellStories`). Pure; the result travels in the
 * snapshot and is committed with the events.
 */
export function recordFallsTold(
  memory: Readonly<Record<string, HolderMemory>>,
  logged: ReadonlyArray<{ event: PositionEvent; routes: readonly RouteVerdict[] }>,
): Record<string, HolderMemory> {
  const next: Record<string, HolderMemory> = { ...memory };
  for (const { event, routes } of logged) {
    // A fall off the list is the close itself: no later close will ask who was told.
    if (event.story?.kind !== 'fell-below' || event.current === null) continue;
    const entry = Object.hasOwn(next, event.holderKey) ? next[event.holderKey] : undefined;
    if (!entry?.below) continue;
    const toldTo = routes.filter((route) => TAKEN.has(route.verdict)).map((route) => route.channel);
    // defineProperty: a holder keyed `__proto__` must stay an own entry.
    Object.defineProperty(next, event.holderKey, {
      value: { ...entry, below: { ...entry.below, toldTo } },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return next;
}
