import { describe, expect, it } from 'vitest';
import { sourceStaleness, staleSources } from '../../src/app/duties/source-staleness.js';
import { type RegisterSourceConfig, registerSourceSchema } from '../../src/config/schema/sources.js';
import type { SourceStatus } from '../../src/jobs/registers/source-status.js';
import type { SourceHealth } from '../../src/state/register-store.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-26T08:00:00Z');
const afm = { name: 'afm', interval: HOUR };

const status = (state: SourceStatus['state'], lastGoodAt: string | null = null): SourceStatus => ({
  name: 'afm',
  kind: 'afm-current',
  state,
  reason: state === 'stale' ? 'html-page: an HTML page' : null,
  lastGoodAt,
});

describe('staleSources', () => {
  it('a source read lately is not stale; one stale by its health is, with why', () => {
    expect(staleSources([afm], [status('read', '2026-11-26T08:30:00Z')], START, START + HOUR)).toEqual([
      { source: 'afm', stale: false, why: 'no good read since 2026-11-26T08:30:00Z' },
    ]);
    const [verdict] = staleSources([afm], [status('stale', '2026-11-26T01:00:00Z')], START, START + HOUR);
    expect(verdict?.stale).toBe(true);
    expect(verdict?.why).toBe('no good read since 2026-11-26T01:00:00Z (last: html-page: an HTML page)');
  });

  it('a source never read is stale once three intervals passed since the process started, not before', () => {
    expect(staleSources([afm], [status('never')], START, START + 3 * HOUR)[0]?.stale).toBe(false);
    const [late] = staleSources([afm], [status('never')], START, START + 3 * HOUR + 1);
    expect(late).toEqual({ source: 'afm', stale: true, why: 'not read once in 3h' });
    expect(staleSources([afm], [], START, START + 4 * HOUR)[0]?.stale).toBe(true);
  });

  it('waits at least ten minutes whatever the interval: a register read every second that misses three is a blip', () => {
    const quick = { name: 'afm', interval: 1_000 };
    expect(staleSources([quick], [status('never')], START, START + 60_000)[0]?.stale).toBe(false);
    const long = staleSources(
      [quick],
      [status('stale', new Date(START).toISOString())],
      START,
      START + 60_000,
    );
    expect(long[0]?.stale).toBe(false);
    expect(staleSources([quick], [status('never')], START, START + 10 * 60_000 + 1)[0]?.stale).toBe(true);
  });
});

describe('the source-staleness duty', () => {
  const source: RegisterSourceConfig = registerSourceSchema.parse({
    name: 'afm',
    kind: 'afm-current',
    url: 'https://registers.example/afm.csv',
    interval: '1h',
  });

  function run(health: SourceHealth | null, nowMs: number) {
    const told: string[] = [];
    const duty = sourceStaleness({
      sources: () => [source],
      store: { health: async () => health },
      notices: {
        raise: async (key, severity) => {
          told.push(`raise ${key} ${severity}`);
          return true;
        },
        clear: async (key) => {
          told.push(`clear ${key}`);
          return true;
        },
      },
      now: () => new Date(nowMs),
      startedAtMs: START,
    });
    return duty.run().then(() => told);
  }

  it('raises source-stale-<name> (critical) for a register never read, and clears it once it is read', async () => {
    expect(await run(null, START + 4 * HOUR)).toEqual(['raise source-stale-afm critical']);
    const at = new Date(START + 4 * HOUR).toISOString();
    const readNow: SourceHealth = { status: 'read', at, since: at, lastGoodAt: at };
    expect(await run(readNow, START + 4 * HOUR)).toEqual(['clear source-stale-afm']);
  });
});
