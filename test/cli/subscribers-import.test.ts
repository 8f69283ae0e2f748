import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../e2e/harness.js';
import { runMain } from './run-main.js';

const SECRET = 'test-link-secret-0123456789-abcdefghijklmnop';
const ROWS = 2_000;
/** The row with a broken address: refused alone, the others imported. */
const BAD_ROW = 1_001;

/** A desk's onboarding sheet: 2,000 traders, each following three issuers, some on digests. */
function desk(): string {
  const lines = ['name,email,issuers,holders,kinds,minValue,mode,timezone,digestSchedule'];
  for (let i = 1; i <= ROWS; i++) {
    const email = i === BAD_ROW ? 'not-an-address' : `trader${i}@desk.example`;
    const issuers = [`ISS-${i % 50}`, `ISS-${(i + 7) % 50}`, 'Fugro N.V.'].join('; ');
    const digest = i % 4 === 0;
    lines.push(
      [
        `"Trader ${i}, Desk ${i % 10}"`,
        email,
        issuers,
        i % 10 === 0 ? 'Marshall Wace LLP' : '',
        i % 3 === 0 ? 'opened;closed' : '',
        i % 5 === 0 ? '0.6' : '',
        digest ? 'digest' : 'immediate',
        digest ? 'Europe/Amsterdam' : '',
        digest ? '0 8 * * 1-5' : '',
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('subscribers import: a desk of 2,000 from CSV', () => {
  let stack: Stack;
  let file: string;

  beforeAll(async () => {
    stack = await startStack({
      issuers: 2,
      config: {
        http: { port: 9, host: '127.0.0.1' },
        subscribers: { email: 'alerts', linkSecret: SECRET, publicUrl: 'http://127.0.0.1:9/' },
      },
    });
    file = join(dirname(stack.configPath), 'desk.csv');
    writeFileSync(file, desk());
  }, 60_000);
  afterAll(async () => {
    await stack?.cleanup();
  });

  it('adds every good row, refuses the bad one by its row, and audits each add', {
    timeout: 120_000,
  }, async () => {
    const run = await runMain(['-c', stack.configPath, 'subscribers', 'import', file]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`Added ${ROWS - 1}, updated 0, refused 1 of ${ROWS} rows.`);
    expect(run.stdout).toMatch(new RegExp(`row ${BAD_ROW + 1}: email`));
    expect(run.code).toBe(1);

    const app = await stack.openApp();
    try {
      const store = app.ctx.subscribers;
      expect(await store.count()).toBe(ROWS - 1);
      const sample = await store.byEmail('trader1236@desk.example');
      expect(sample).toMatchObject({
        name: 'Trader 1236, Desk 6',
        watch: { issuers: ['ISS-36', 'ISS-43', 'Fugro N.V.'], holders: [] },
        prefs: {
          kinds: ['opened', 'closed'],
          mode: 'digest',
          timezone: 'Europe/Amsterdam',
          digestSchedule: '0 8 * * 1-5',
        },
        version: 1,
      });
      expect((await store.byEmail('trader1230@desk.example'))?.watch.holders).toEqual(['Marshall Wace LLP']);
      expect((await store.byEmail('trader1230@desk.example'))?.prefs.minValue).toBe(0.6);
      expect(await store.byEmail('trader1001@desk.example')).toBeUndefined();

      const audit = await store.audit(undefined, ROWS + 10);
      expect(audit).toHaveLength(ROWS - 1);
      expect(new Set(audit.map((entry) => `${entry.action} ${entry.via} ${entry.who}`))).toEqual(
        new Set([`added import import ${file}`]),
      );
      expect(new Set(audit.map((entry) => entry.subscriberId)).size).toBe(ROWS - 1);
    } finally {
      await app.stop(1_000);
    }

    // The same sheet again, as a dry run: every good address is known now, nothing is written.
    const again = await runMain(['-c', stack.configPath, 'subscribers', 'import', file, '--dry-run']);
    expect(again.stdout).toContain(`Would add 0, would update ${ROWS - 1}, refused 1 of ${ROWS} rows.`);
    const listed = await runMain(['-c', stack.configPath, 'subscribers', 'list']);
    expect(listed.stdout).toContain(`${ROWS - 1} subscribers.`);
  });
});
