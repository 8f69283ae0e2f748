// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates

import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { accessFingerprint } from '../../src/budget/access-state.js';
import { BUDGET_SHARED_NOTICE, sharedBudgetText } from '../../src/budget/shared-budget.js';
import { parseConfig } from '../../src/config/load.js';
import { collectStatus, readiness, type StatusReport } from '../../src/ops/status.js';
import { keyRoot, ledgerRoot } from '../../src/state/keys.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { RATE_LIMITED_NOTICE } from '../../src/upstream-clients.js';
import { deleteByPrefix } from '../helpers/redis.js';
import {
  type DaemonProcess,
  runShortwatch,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from './harness.js';

/** A second key the sandbox accepts: the same upstream under another credential (another plan). */
const OTHER_KEY = 'other-plan-key';

/*
 * The upstream's caps belong to its credential: two deployments (prod and staging prefixes) on one Redis
 * with one API key spend one plan's requests, so they count in one ledger, and another key counts apart.
 */
describe('deployments that share an upstream key and a Redis share its budget', () => {
  let stack: Stack | undefined;
  const apps: App[] = [];
  const daemons: DaemonProcess[] = [];
  const extraPrefixes: string[] = [];

  afterEach(async () => {
    await stopDaemons(daemons.splice(0));
    await Promise.all(apps.splice(0).map((app) => app.stop(1_000)));
    if (stack) {
      const { redis, sandbox } = stack;
      for (const prefix of extraPrefixes.splice(0)) await deleteByPrefix(redis.redis, prefix);
      await deleteByPrefix(redis.redis, ledgerRoot(accessFingerprint(sandbox.url, OTHER_KEY)));
      await stack.cleanup();
    }
    stack = undefined;
  });

  /** The stack's config under `{<stack prefix>-<label>}` with the given API key. */
  function configOf(running: Stack, label: string, apiKey: string, extra: Record<string, unknown> = {}) {
    const config = structuredClone(running.configObject);
    const yaml = stringify({
      ...config,
      upstream: { ...(config.upstream as object), apiKey },
      redis: { ...(config.redis as object), prefix: `${running.prefix}-${label}` },
      ...extra,
    });
    return parseConfig(yaml, running.configPath);
  }

  /** Opens an App on {@link configOf}. */
  async function deployment(
    running: Stack,
    label: string,
    apiKey = 'sandbox-key',
    extra: Record<string, unknown> = {},
  ): Promise<App> {
    extraPrefixes.push(`${running.prefix}-${label}`);
    const app = await App.open(configOf(running, label, apiKey, extra), { logger: silentLogger() });
    apps.push(app);
    return app;
  }

  it('prod and staging count in one ledger, outside both prefixes; another key counts apart', async () => {
    const running = await startStack({
      issuers: 2,
      seed: 3,
      sandbox: { keys: { valid: ['sandbox-key', OTHER_KEY] } },
    });
    stack = running;
    const prod = await deployment(running, 'prod');
    const staging = await deployment(running, 'staging');
    const [issuer] = running.sandbox.scenario.issuers();
    if (!issuer) throw new Error('the scenario has no issuers');

    await prod.client('interactive').listIssuers();
    await staging.client('interactive').listIssuers();
    await staging.client('polling').getPositions(issuer.svc_issuer_id, 'active');
    expect(running.sandbox.stats.requests).toHaveLength(3);

    // Each deployment sees the three requests the upstream counted against the key, by purpose.
    for (const app of [prod, staging]) {
      const usage = await app.ctx.budget.usage();
      expect(usage.day.used).toBe(3);
      const dayStart = usage.day.resetAt - app.settings.config.budget.dayWindow;
      await waitFor('the calls tallied', async () => (await app.ctx.budget.calls(dayStart)).poll === 1);
      expect(await app.ctx.budget.calls(dayStart)).toMatchObject({ interactive: 2, poll: 1 });
    }
    expect(await running.redis.redis.hget(running.ledger.budgetWindow('day'), 'used')).toBe('3');
    // The ledger is not a key of either deployment (where the windows and the tally used to be).
    for (const app of [prod, staging]) {
      const root = keyRoot(app.ctx.prefix);
      const old = [`${root}:budget:minute`, `${root}:budget:day`, `${root}:requests`];
      expect(await running.redis.redis.exists(...old)).toBe(0);
    }

    const other = await deployment(running, 'other', OTHER_KEY);
    expect((await other.ctx.budget.usage()).day.used).toBe(0);
    await other.client('interactive').listIssuers();
    expect((await other.ctx.budget.usage()).day.used).toBe(1);
    expect((await prod.ctx.budget.usage()).day.used).toBe(3);
  });

  it("a 429 holds both; prod's probe ends probing, and staging's notice clears at its next beat", async () => {
    const running = await startStack({ issuers: 2, seed: 5 });
    stack = running;
    const budget = { ...(running.configObject.budget as object), probeInterval: '300ms' };
    const staging = await deployment(running, 'staging', 'sandbox-key', { budget });
    const prod = await deployment(running, 'prod', 'sandbox-key', { budget });
    // Workers only: no sweep spends the budget, the beat runs (every 10 s).
    await staging.startDaemon({ workerOnly: true });
    const notices = async () => (await staging.ctx.notices.list()).map((n) => n.key);

    running.sandbox.faults.rateLimit('day', { retryAfterSeconds: null });
    await expect(staging.client('interactive').listIssuers()).rejects.toThrow();
    expect(await notices()).toContain(RATE_LIMITED_NOTICE);
    // The block is the key's: prod is held too, until the probe is due; then prod sends it.
    expect((await prod.ctx.budget.usage()).probing).not.toBeNull();
    await waitFor(
      "prod's probe answered",
      async () =>
        await prod
          .client('interactive')
          .listIssuers()
          .then(() => true)
          .catch(() => false),
      5_000,
    );
    expect((await staging.ctx.budget.usage()).probing).toBeNull();
    await waitFor(
      'the notice cleared',
      async () => !(await notices()).includes(RATE_LIMITED_NOTICE),
      15_000,
      200,
    );
  });

  it('`status` run without the API key shows the budget the daemon spends, from the ledger it recorded', async () => {
    const running = await startStack({ issuers: 2, seed: 4 });
    stack = running;
    updateConfig(running, (config) => ({
      ...config,
      upstream: { ...(config.upstream as object), apiKey: '${SHORTWATCH_API_KEY}' },
    }));
    daemons.push(await spawnDaemon(running, 'start', { SHORTWATCH_API_KEY: 'sandbox-key' }));
    await waitFor(
      'the daemon spent a request',
      async () => Number(await running.redis.redis.hget(running.ledger.budgetWindow('day'), 'used')) > 0,
    );
    const status = await runShortwatch(['-c', running.configPath, 'status', '--json'], {
      SHORTWATCH_API_KEY: '',
    });
    expect(status.code, status.stderr).toBe(0);
    const report: StatusReport = JSON.parse(status.stdout);
    // Without the key, the command cannot fingerprint it: it reads the ledger the daemon recorded.
    expect(report.budget?.day.used).toBeGreaterThan(0);
    expect(report.budget?.sharedWith).toEqual([]);
  });

  it('while other deployments spend the same key, each says which (notice, status, /readyz), until they stop or change keys', async () => {
    const running = await startStack({
      issuers: 2,
      seed: 6,
      sandbox: { keys: { valid: ['sandbox-key', OTHER_KEY] } },
    });
    stack = running;
    const staging = await deployment(running, 'staging');
    const prod = await deployment(running, 'prod');
    const qa = await deployment(running, 'qa');
    const nameOf = (app: App) => app.settings.config.redis.prefix;
    const [stagingName, prodName, qaName] = [nameOf(staging), nameOf(prod), nameOf(qa)];
    const noticeOf = async (app: App) =>
      (await app.ctx.notices.list()).find((notice) => notice.key === BUDGET_SHARED_NOTICE);
    // Workers only: no sweep spends the budget; the beat runs at start, then every 10 s.
    await staging.startDaemon({ workerOnly: true });
    expect(await noticeOf(staging)).toBeUndefined();
    expect((await collectStatus(staging)).budget?.sharedWith).toEqual([]);
    // Prod's first beat finds staging (staging finds prod at its next beat, the same way).
    await prod.startDaemon({ workerOnly: true });
    expect((await noticeOf(prod))?.text).toBe(sharedBudgetText([stagingName]));
    expect((await collectStatus(prod)).budget?.sharedWith).toEqual([stagingName]);
    expect((await collectStatus(staging)).budget?.sharedWith).toEqual([prodName]);
    expect((await readiness(prod)).notices).toContain(
      "warning: Another deployment spends this API key's budget",
    );

    // A third joins: prod's notice names both at its next beat (a notice keeps its first text otherwise).
    await qa.startDaemon({ workerOnly: true });
    expect((await noticeOf(qa))?.text).toBe(sharedBudgetText([prodName, stagingName].sort()));
    const both = sharedBudgetText([qaName, stagingName].sort());
    await waitFor('prod names qa too', async () => (await noticeOf(prod))?.text === both, 15_000, 200);

    // A stopping daemon leaves the record at once.
    await qa.stop(1_000);
    apps.splice(apps.indexOf(qa), 1);
    expect((await collectStatus(prod)).budget?.sharedWith).toEqual([stagingName]);
    // Prod reloads onto a key of its own: it leaves the shared record at once, and its notice clears.
    await prod.reload(configOf(running, 'prod', OTHER_KEY), { workerOnly: true });
    expect((await collectStatus(staging)).budget?.sharedWith).toEqual([]);
    expect((await collectStatus(prod)).budget?.sharedWith).toEqual([]);
    expect(await noticeOf(prod)).toBeUndefined();
  });
});
