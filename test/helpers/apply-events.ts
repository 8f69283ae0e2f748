import { round4 } from '../../src/positions/round.js';
import type { HeldPosition, PositionEvent } from '../../src/positions/types.js';

/**
 * Replays events over a previous state: opened/increased/decreased set the current value, closed
 * removes the holder. The oracle of the diff's property tests: it must equal the next snapshot.
 */
export function applyEvents(
  previous: Record<string, HeldPosition>,
  events: readonly PositionEvent[],
): Record<string, { value: number }> {
  const state = new Map<string, { value: number }>();
  for (const [key, position] of Object.entries(previous)) state.set(key, { value: round4(position.value) });
  for (const event of events) {
    if (event.current === null) state.delete(event.holderKey);
    else state.set(event.holderKey, { value: round4(event.current.value) });
  }
  return Object.fromEntries(state);
}
