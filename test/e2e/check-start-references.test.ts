import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Snapshot } from '../../src/positions/types.js';
import { keyRoot } from '../../src/state/keys.js';
import { runShortwatch, type Stack, startStack, waitFor, withChannelPatch } from './harness.js';

// Issue 22: a misspelt issuer or holder in a filter, a mute of a holder that does not exist and a Slack URL
// that is not a URL each silently drop alerts. `check` refuses each (exit 2, the key path, the closest
// match), `start` refuses the same config and leaves Redis as it found it, and `shortwatch mute` refuses the
// holder. The deployment has polled once, so its snapshots hold the holders the names are checked against.

type Config = Record<string, unknown>;

/** A name with its second and third letters swapped: a typo, still near the name. */
const typo = (name: string) => name.replace(/^(\w)(\w)(\w)/u, '$1$3$2');

/** One misspelling: the config change, the key path `check` and `start` name, and the match they offer. */
interface Misspelling {
  name: string;
  change: (config: Config) => Config;
  path: string;
  closest?: string;
}

/** The cases, in the order beforeAll builds them. */
const CASE_NAMES = [
  'an issuer misspelt in a channel filter',
  'an issuer misspelt in a digest filter',
  'a holder misspelt in a holders filter',
  'a Slack webhook URL that is not a URL',
];

describe('check and start refuse misspelt references and URLs; a refused start leaves Redis as it was', () => {
  let stack: Stack;
  let cases: Misspelling[];
  let holder: string;
  const dir = mkdtempSync(join(tmpdir(), 'shortwatch-refs-'));

  beforeAll(async () => {
    stack = await startStack({ issuers: 3, seed: 12, channels: ['slack', 'email', 'digest'] });
    // One start polls every issuer: the snapshots (and the saved issuer list) the checks read.
    const app = await stack.openApp();
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    let snapshots: Snapshot[] = [];
    try {
      await app.startDaemon({ workerOnly: false });
      await waitFor('baseline snapshots', async () => (await app.ctx.snapshots.getMany(ids)).size === 3);
      snapshots = [...(await app.ctx.snapshots.getMany(ids)).values()];
    } finally {
      await app.stop(2_000);
    }
    const holders = snapshots.flatMap((s) => Object.values(s.positions).map((p) => p.holder));
    const chosen = holders.find((h) => /^\w{4,}/u.test(h));
    const [first, , third] = stack.sandbox.scenario.issuers();
    if (!chosen || !first || !third) throw new Error('the scenario has no usable holder or issuer');
    holder = chosen;
    cases = [
      {
        name: CASE_NAMES[0] ?? '',
        change: withChannelPatch('desk', { filter: { issuers: [typo(first.name)] } }),
        path: 'channels[0].filter.issuers[0]',
        closest: `${first.name} (${first.svc_issuer_id})`,
      },
      {
        name: CASE_NAMES[1] ?? '',
        change: withChannelPatch('morning', { filter: { issuers: [third.svc_issuer_id, typo(third.name)] } }),
        path: 'channels[2].filter.issuers[1]',
        closest: `${third.name} (${third.svc_issuer_id})`,
      },
      {
        name: CASE_NAMES[2] ?? '',
        change: withChannelPatch('alerts', { filter: { holders: [typo(holder)] } }),
        path: 'channels[1].filter.holders[0]',
        closest: holder,
      },
      {
        name: CASE_NAMES[3] ?? '',
        change: withChannelPatch('desk', { webhookUrl: 'hooks.example.test/services/T000/B000/XXXX' }),
        path: 'channels[0].webhookUrl',
      },
    ];
  }, 60_000);

  afterAll(async () => {
    await stack.cleanup();
  });

  /**
   * Every key under the deployment's prefix: the lasting ones with their serialised values, and the names
   * of the expiring ones (BullMQ's stalled-check marks, leases), which may lapse on their own meanwhile.
   */
  async function redisState(): Promise<{ lasting: Map<string, string>; expiring: Set<string> }> {
    const lasting = new Map<string, string>();
    const expiring = new Set<string>();
    const { redis } = stack.redis;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyRoot(stack.prefix)}*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        if ((await redis.pttl(key)) >= 0) expiring.add(key);
        else lasting.set(key, (await redis.dumpBuffer(key))?.toString('hex') ?? '');
      }
    } while (cursor !== '0');
    return { lasting, expiring };
  }

  /** Nothing written since `before`: the same lasting keys and values, no expiring key that was not there. */
  async function expectUntouched(before: Awaited<ReturnType<typeof redisState>>, what: string) {
    const after = await redisState();
    expect(after.lasting, what).toEqual(before.lasting);
    expect(
      [...after.expiring].filter((key) => !before.expiring.has(key)),
      what,
    ).toEqual([]);
  }

  function configFile(label: string, change: (config: Config) => Config): string {
    const file = join(dir, `${label}.yaml`);
    writeFileSync(file, stringify(change(structuredClone(stack.configObject))));
    return file;
  }

  it('the baseline config passes check', async () => {
    const check = await runShortwatch(['-c', configFile('good', (c) => c), 'check']);
    expect(check.stdout).not.toContain('FAIL');
    // The stack names no ops channel: said, not refused.
    expect(check.stdout).toContain('WARN  ops.channel: not set: critical notices');
    expect(check.code, check.stdout).toBe(0);
  }, 60_000);

  // The cases need the stored holders, known after beforeAll: each test takes its case by index.
  it.each(CASE_NAMES.map((name, index) => ({ name, index })))(
    '$name: check exits 2 naming the key path and the closest match; start refuses the same and writes nothing',
    async ({ index }) => {
      const bad = cases[index];
      if (!bad) throw new Error(`no case ${index}`);
      const file = configFile(`bad${index}`, bad.change);
      const check = await runShortwatch(['-c', file, 'check']);
      const problem = check.stdout.split('\n').find((line) => line.startsWith(`FAIL  ${bad.path}: `));
      expect(check.code, `${bad.name}\n${check.stdout}`).toBe(2);
      expect(problem, `${bad.name}\n${check.stdout}`).toBeDefined();
      if (bad.closest) expect(problem).toContain(`closest: ${bad.closest}`);

      const before = await redisState();
      const start = await runShortwatch(['-c', file, 'start']);
      expect(start.code, `${bad.name}\n${start.stderr}`).toBe(2);
      expect(start.stderr).toContain(`  - ${problem?.slice('FAIL  '.length)}`);
      await expectUntouched(before, bad.name);
    },
    180_000,
  );

  it('a mute of a holder that does not exist: exit 2 with the closest holder, no mute stored', async () => {
    const before = await redisState();
    const mute = await runShortwatch(['-c', stack.configPath, 'mute', 'holder', typo(holder), '--for', '7d']);
    expect(mute.code, mute.stderr).toBe(2);
    expect(mute.stderr).toContain(
      `no holder "${typo(holder)}" in the snapshots, the event log or the registers' files; closest: ${holder}`,
    );
    await expectUntouched(before, 'mute');
    const known = await runShortwatch(['-c', stack.configPath, 'mute', 'holder', holder, '--for', '7d']);
    expect(known.code, known.stderr).toBe(0);
    expect(await stack.redis.redis.hlen(stack.keys.mutes)).toBe(1);
  }, 120_000);
});
