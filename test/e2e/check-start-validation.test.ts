// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { accessFingerprint } from '../../src/budget/access-state.js';
import { keyRoot, ledgerKeys, ledgerRoot } from '../../src/state/keys.js';
import { deleteByPrefix } from '../helpers/redis.js';
import { runShortwatch, type Stack, startStack, withChannelPatch } from './harness.js';

type Config = Record<string, unknown>;

/** One config `start` refuses: what to change, the environment, and the key path both commands must name. */
interface BadConfig {
  name: string;
  path: string;
  change: (config: Config) => Config;
  env?: NodeJS.ProcessEnv;
}

const digestAt = (schedule: string) => withChannelPatch('morning', { schedule });

// The stack's channels, in order: desk (Slack), alerts (email), morning (email digest).
const BAD_CONFIGS: BadConfig[] = [
  {
    name: 'a digest schedule in words',
    path: 'channels[2].schedule',
    change: digestAt('every weekday at 7:30'),
  },
  { name: 'a digest schedule out of range', path: 'channels[2].schedule', change: digestAt('61 25 * * *') },
  {
    name: 'a day range with three ends',
    path: 'channels[2].schedule',
    change: digestAt('30 7 * * mon-fri-sat'),
  },
  {
    name: 'a heartbeat that is not a cron pattern',
    path: 'ops.heartbeat',
    change: (config) => ({ ...config, ops: { channel: 'desk', heartbeat: '0 9 * * monday' } }),
  },
  {
    name: 'the Slack webhook URL of a sending channel unset',
    path: 'channels[0].webhookUrl',
    change: withChannelPatch('desk', { webhookUrl: '${SLACK_WEBHOOK_URL}' }),
    env: { SLACK_WEBHOOK_URL: '' },
  },
  {
    name: 'an SMTP password file that cannot be read',
    path: 'channels[1].auth.passFile',
    change: withChannelPatch('alerts', {
      auth: { user: 'shortwatch', passFile: '/nonexistent/smtp_password' },
    }),
  },
];

/**
 * The key the typo case's `start` uses: `check` runs beside it on the same sandbox, and with one key both
 * would count in one ledger (the upstream's caps belong to the key, not to a prefix).
 */
const START_KEY = 'start-only-key';

describe('check and start refuse the same configs, naming the same key, and a refused start leaves no key', () => {
  let stack: Stack;
  const dir = mkdtempSync(join(tmpdir(), 'shortwatch-preflight-'));
  const prefixes: string[] = [];

  beforeAll(async () => {
    stack = await startStack({
      issuers: 3,
      seed: 12,
      channels: ['slack', 'email', 'digest'],
      sandbox: { keys: { valid: ['sandbox-key', START_KEY] } },
    });
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteByPrefix(stack.redis.redis, prefix);
    await deleteByPrefix(stack.redis.redis, startLedger());
    await stack.cleanup();
  });

  /** Writes the stack's config with `change` applied under a prefix of its own. */
  function configFile(label: string, change: (config: Config) => Config): { file: string; prefix: string } {
    const prefix = `${stack.prefix}-${label}`;
    prefixes.push(prefix);
    const config = change(structuredClone(stack.configObject));
    const file = join(dir, `${label}.yaml`);
    writeFileSync(file, stringify({ ...config, redis: { ...(config.redis as Config), prefix } }));
    return { file, prefix };
  }

  /** The ledger root of the typo case's `start`: the sandbox's URL and {@link START_KEY}. */
  function startLedger(): string {
    return ledgerRoot(accessFingerprint(stack.sandbox.url, START_KEY));
  }

  async function keysUnder(prefix: string): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await stack.redis.redis.scan(cursor, 'MATCH', `${keyRoot(prefix)}*`, 'COUNT', 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found.sort();
  }

  /** Runs `check` and `start` on the same config (each on its own prefix): exit codes, outputs, start's keys. */
  async function checkAndStart(
    label: string,
    change: (config: Config) => Config,
    env: NodeJS.ProcessEnv = {},
    startChange: (config: Config) => Config = (config) => config,
  ) {
    const forCheck = configFile(`${label}-check`, change);
    const forStart = configFile(`${label}-start`, (config) => startChange(change(config)));
    const [check, start] = await Promise.all([
      runShortwatch(['-c', forCheck.file, 'check'], env),
      runShortwatch(['-c', forStart.file, 'start'], env),
    ]);
    return { check, start, keysLeft: await keysUnder(forStart.prefix) };
  }

  it.each(BAD_CONFIGS.map((bad, index) => ({ ...bad, index })))(
    '$name: both exit 2 naming $path; start registers nothing',
    async ({ index, path, change, env }) => {
      const { check, start, keysLeft } = await checkAndStart(`bad${index}`, change, env);
      const problem = check.stdout.split('\n').find((line) => line.startsWith(`FAIL  ${path}: `));
      expect(check.code, check.stdout).toBe(2);
      expect(problem, check.stdout).toBeDefined();
      expect(start.code, start.stderr).toBe(2);
      // The same problem, in the same words: `start` lists it under "invalid config".
      expect(start.stderr).toContain(`  - ${problem?.slice('FAIL  '.length)}`);
      expect(keysLeft).toEqual([]);
    },
    // Two spawned CLI processes each compile through tsx: on 2 busy cores that alone can take 30 s.
    90_000,
  );

  it("a misspelt watchlist name: both exit 2 naming watchlist[1].name; start leaves no key, and its one request stays counted in the key's ledger", async () => {
    const [first, second] = stack.sandbox.scenario.issuers();
    if (!first || !second) throw new Error('the scenario has no issuers');
    const typo = second.name.replace(/^(\w)(\w)/, '$2$1');
    const { check, start, keysLeft } = await checkAndStart(
      'typo',
      (config) => ({ ...config, watchlist: [{ id: first.svc_issuer_id }, { name: typo }] }),
      {},
      (config) => ({ ...config, upstream: { ...(config.upstream as Config), apiKey: START_KEY } }),
    );
    const expected = `watchlist[1].name: watchlist entry "${typo}" matches no issuer; closest: ${second.name} (${second.svc_issuer_id})`;
    expect(check.code, check.stdout).toBe(2);
    expect(check.stdout).toContain(`FAIL  ${expected}`);
    expect(start.code, start.stderr).toBe(2);
    expect(start.stderr).toContain(`  - ${expected}`);
    // One GET /issuers told the names apart. Nothing of the prefix was written; the token stays counted
    // in the ledger of the key (the upstream counted it too: a start refused in a restart loop must not
    // spend the plan unseen), and so does its purpose in the console's tally of requests.
    expect(keysLeft).toEqual([]);
    const ledger = ledgerKeys(startLedger());
    expect(await stack.redis.redis.hget(ledger.budgetWindow('day'), 'used')).toBe('1');
    expect(await stack.redis.redis.hget(ledger.requestTally, 'issuer-list')).toBe('1');
  });

  it('the same config, fixed, passes check with exit 0', async () => {
    const { file } = configFile('good', (config) => config);
    const check = await runShortwatch(['-c', file, 'check']);
    expect(check.stdout).not.toContain('FAIL');
    expect(check.code, check.stdout).toBe(0);
  });
});
