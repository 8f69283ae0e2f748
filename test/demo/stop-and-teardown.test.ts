import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { REPEAT_GRACE_MS, watchForStop } from '../../src/demo/stop-signal.js';
import { Teardown } from '../../src/demo/teardown.js';

describe('watchForStop', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'resolves on %s and removes its listeners when disposed',
    async (signal) => {
      const source = new EventEmitter();
      const watch = watchForStop(source, undefined, () => undefined);
      source.emit(signal);
      await expect(watch.reason).resolves.toBe(signal);
      watch.dispose();
      expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
    },
  );

  it('resolves when the duration has passed', async () => {
    const watch = watchForStop(new EventEmitter(), 20, () => undefined);
    await expect(watch.reason).resolves.toBe('duration');
    watch.dispose();
  });

  it('takes repeats of one Ctrl-C as one, and a later one as "exit now"', async () => {
    const source = new EventEmitter();
    let clock = 1_000;
    const repeats: string[] = [];
    const watch = watchForStop(
      source,
      undefined,
      (s) => repeats.push(s),
      () => clock,
    );
    source.emit('SIGINT');
    clock += 100;
    source.emit('SIGINT');
    expect(repeats).toEqual([]);
    clock += REPEAT_GRACE_MS;
    source.emit('SIGINT');
    expect(repeats).toEqual(['SIGINT']);
    await expect(watch.reason).resolves.toBe('SIGINT');
    watch.dispose();
  });
});

describe('Teardown', () => {
  it('undoes in reverse order, goes on after a failure or a hang, and reports both', async () => {
    const teardown = new Teardown();
    const done: string[] = [];
    teardown.add('redis', async () => done.push('redis'));
    teardown.add('hangs', () => new Promise(() => undefined));
    teardown.add('fails', async () => {
      throw new Error('boom');
    });
    teardown.add('app', async () => {
      await sleep(5);
      done.push('app');
    });
    const problems = await teardown.run(200);
    expect(done).toEqual(['app', 'redis']);
    expect(problems).toEqual([
      { step: 'fails', problem: 'boom' },
      { step: 'hangs', problem: 'hangs: gave up after 200 ms' },
    ]);
    expect(await teardown.run()).toEqual([]);
  });
});
