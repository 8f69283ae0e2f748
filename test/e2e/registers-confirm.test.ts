import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBytes } from '../helpers/register-fixtures.js';
import { waitFor } from './harness.js';
import { ANSP_FIXTURE } from './register-changes.js';
import { FSMA_FIXTURE } from './register-changes-named.js';
import { type RegisterStack, startRegisterStack } from './register-stack.js';

// A CSV cut at a row boundary (a partial export) passes the shrink check from 60% of its rows on. The
// confirmation guard holds it back: replaced by the full file before the confirming read it tells
// nothing; kept until then it tells its closes (and ended aggregates) once. The Norway CSV excerpt lists
// one issuer's history, newest first: a cut keeps its latest row, removes nothing and is not held.
const NORWAY_CSV = 'shared:norway/export-csv_separator-pipe_excerpt.csv';
const SOURCES = [
  { name: 'fsma', kind: 'be-fsma-current', path: '/fsma.csv', fixture: FSMA_FIXTURE },
  { name: 'ansp', kind: 'uk-ansp-current', path: '/ansp.csv', fixture: ANSP_FIXTURE },
  { name: 'oslo', kind: 'no-ssr-csv', path: '/ssr.csv', fixture: NORWAY_CSV },
].map((s) => ({ ...s, config: { confirm: { after: '4s' } } }));
const REMOVES = new Set(['fsma', 'ansp']);

let registers: RegisterStack;

beforeAll(async () => {
  registers = await startRegisterStack(SOURCES);
}, 60_000);

afterAll(async () => {
  await registers?.close();
});

/** The fixture with its data rows cut to `share` of them, at a row boundary (the header kept). */
function cut(fixture: string, share: number): Buffer {
  const [header, ...rows] = registerBytes(fixture)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return Buffer.from(`${[header, ...rows.slice(0, Math.round(rows.length * share))].join('\n')}\n`);
}

const held = async (name: string) => (await registers.store().held(name)) !== null;

describe.each(SOURCES)('a truncated $kind file', (source) => {
  it.each([0.6, 0.9])(
    'at %s of its rows, replaced by the full file before the confirming read, tells nothing',
    async (share) => {
      const { server } = registers;
      const events = await registers.events();
      const posts = registers.stack.slack.delivered().length;
      server.serve(source.path, cut(source.fixture, share));
      if (REMOVES.has(source.name)) {
        await waitFor(`${source.name} held back`, () => held(source.name));
        const status = await registers.store().held(source.name);
        expect(status?.text).toMatch(/gone: held back until a confirming read/);
      } else await registers.readsPass(2);
      server.serve(source.path, registerBytes(source.fixture));
      await waitFor(`${source.name} released`, async () => !(await held(source.name)));
      await registers.readsPass(2);
      expect(registers.stack.slack.delivered()).toHaveLength(posts);
      expect(await registers.events()).toEqual(events);
    },
    40_000,
  );

  it.runIf(REMOVES.has(source.name))(
    'kept until the confirming read, tells its closes once (skipped where a cut removes nothing)',
    async () => {
      const { server } = registers;
      const events = await registers.events();
      const posts = registers.stack.slack.delivered().length;
      server.serve(source.path, cut(source.fixture, 0.6));
      await waitFor(`${source.name} held back`, () => held(source.name));
      await waitFor(`${source.name} confirmed`, async () => !(await held(source.name)), 20_000);
      await waitFor('told on Slack', () => registers.stack.slack.delivered().length > posts);
      await registers.readsPass(3);
      const told = (await registers.events()).filter((e) => !events.includes(e));
      expect(told.length).toBeGreaterThan(0);
      expect(new Set(told).size).toBe(told.length);
      const again = registers.stack.slack.delivered().length;
      await registers.readsPass(2);
      expect(registers.stack.slack.delivered()).toHaveLength(again);
      // Back to the full file: what the confirmed read closed opens again, as the register says.
      server.serve(source.path, registerBytes(source.fixture));
      await registers.readsPass(3);
    },
    60_000,
  );
});
