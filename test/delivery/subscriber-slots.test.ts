import { describe, expect, it } from 'vitest';
import { SubscriberSlots } from '../../src/delivery/subscriber-slots.js';

/** Slots whose starts are only written down, with the most ever live at once. */
function slots(cap: number) {
  const started: string[] = [];
  const s = new SubscriberSlots(
    () => cap,
    (channel) => started.push(channel),
  );
  return { s, started };
}

describe('subscriber slots', () => {
  it('starts up to the cap, queues the rest first come first served, each channel once', () => {
    const { s, started } = slots(2);
    for (const channel of ['~a', '~b', '~c', '~a', '~d', '~c']) s.want(channel);
    expect(started).toEqual(['~a', '~b']);
    expect(s.counts()).toEqual({ live: 2, waiting: 2 });
    expect(s.contended).toBe(true);
    s.done('~b');
    expect(started).toEqual(['~a', '~b', '~c']);
    s.done('~a');
    s.done('~c');
    expect(started).toEqual(['~a', '~b', '~c', '~d']);
    expect(s.counts()).toEqual({ live: 1, waiting: 0 });
    expect(s.contended).toBe(false);
  });

  it('a turn ended with work left queues the channel behind those already waiting', () => {
    const { s, started } = slots(1);
    s.want('~a');
    s.want('~b');
    s.want('~c');
    s.done('~a', true);
    s.done('~b');
    s.done('~c');
    expect(started).toEqual(['~a', '~b', '~c', '~a']);
  });

  it('a done for a channel without a slot changes nothing; a dropped channel no longer waits', () => {
    const { s, started } = slots(1);
    s.want('~a');
    s.want('~b');
    s.done('~b');
    expect(s.counts()).toEqual({ live: 1, waiting: 1 });
    s.drop('~b');
    s.done('~a');
    expect(started).toEqual(['~a']);
    expect(s.counts()).toEqual({ live: 0, waiting: 0 });
  });
});
