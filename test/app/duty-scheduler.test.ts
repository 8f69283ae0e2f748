import { describe, expect, it } from 'vitest';
import { type Duty, DutyScheduler, dutiesDue } from '../../src/app/duty-scheduler.js';
import { waitFor } from '../e2e/harness.js';
import { captureLog } from '../helpers/log-capture.js';

/** A duty that notes each run in `runs`, and throws when `fails` says so. */
function noting(name: string, periodMs: number, runs: string[], fails?: { failure?: string }): Duty {
  return {
    name,
    periodMs,
    reads: 'nothing',
    writes: 'runs',
    ...(fails?.failure === undefined ? {} : { failure: fails.failure }),
    run: async () => {
      runs.push(name);
      if (fails) throw new Error(`${name} failed`);
    },
  };
}

describe('dutiesDue', () => {
  const duties = [{ periodMs: 10 }, { periodMs: 20 }, { periodMs: 30 }];
  it.each([
    { tick: 0, due: [10, 20, 30] },
    { tick: 1, due: [10] },
    { tick: 2, due: [10, 20] },
    { tick: 3, due: [10, 30] },
    { tick: 6, due: [10, 20, 30] },
  ])('tick $tick runs the duties of periods $due', ({ tick, due }) => {
    expect(dutiesDue(duties, tick, 10).map((d) => d.periodMs)).toEqual(due);
  });
});

describe('DutyScheduler', () => {
  it('refuses a period that is not a whole number of ticks', () => {
    const scheduler = new DutyScheduler(captureLog().logger, 10_000);
    expect(() => scheduler.register(noting('odd', 15_000, []))).toThrow(/odd: period 15000 ms/);
    expect(() => scheduler.register(noting('none', 0, []))).toThrow(RangeError);
  });

  it('runs every duty at start in order, goes on past a failure, and logs only a failure it should tell', async () => {
    const log = captureLog();
    const runs: string[] = [];
    const scheduler = new DutyScheduler(log.logger, 10_000)
      .register(noting('first', 10_000, runs, { failure: 'first could not run' }))
      .register(noting('quiet', 10_000, runs, {}))
      .register(noting('last', 20_000, runs));
    await scheduler.start();
    await scheduler.stop();
    expect(runs).toEqual(['first', 'quiet', 'last']);
    expect(log.withMessage('first could not run')).toHaveLength(1);
    expect(log.lines().filter((line) => line.level >= 40)).toHaveLength(1);
    expect(scheduler.duties.map((d) => d.name)).toEqual(['first', 'quiet', 'last']);
  });

  it('runs each duty on its period, and stop waits for the tick running', async () => {
    const runs: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ticks = 0;
    const slow: Duty = {
      name: 'slow',
      periodMs: 40,
      reads: 'nothing',
      writes: 'runs',
      run: async () => {
        runs.push('slow');
        if (++ticks === 2) await held;
      },
    };
    const scheduler = new DutyScheduler(captureLog().logger, 20)
      .register(noting('fast', 20, runs))
      .register(slow);
    await scheduler.start();
    expect(scheduler.started).toBe(true);
    await waitFor('the slow duty runs again', async () => ticks === 2);
    // Tick 2 ran both; tick 1 only the fast one.
    expect(runs).toEqual(['fast', 'slow', 'fast', 'fast', 'slow']);
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });
});
