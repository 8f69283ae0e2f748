// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchChannel, runShortwatch, type Stack, startStack, updateConfig, waitFor } from './harness.js';

// Every secret of the stack's config comes from the environment, and none is set.
const NO_SECRETS = { SHORTWATCH_API_KEY: '', SLACK_WEBHOOK_URL: '', SMTP_PASSWORD: '' };

describe('commands that send nothing need no channel or upstream secret', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ issuers: 2, seed: 41, channels: ['slack', 'email'] });
    updateConfig(stack, (config) => ({
      ...config,
      upstream: { ...(config.upstream as object), apiKey: '${SHORTWATCH_API_KEY}' },
    }));
    patchChannel(stack, 'desk', { webhookUrl: '${SLACK_WEBHOOK_URL}' });
    patchChannel(stack, 'alerts', { auth: { user: 'shortwatch', pass: '${SMTP_PASSWORD}' } });
  });

  afterAll(async () => {
    await stack.cleanup();
  });

  it.each(['status', 'status --json', 'mutes', 'events', 'plan', 'deliveries', 'deliveries --failed'])(
    '`shortwatch %s` runs with exit 0',
    async (command) => {
      const result = await runShortwatch(['-c', stack.configPath, ...command.split(' ')], NO_SECRETS);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    },
  );

  it.each<[string, string[], string]>([
    ['test-notify to the Slack channel', ['test-notify', 'desk'], 'channels[0].webhookUrl'],
    ['test-notify to the email channel', ['test-notify', 'alerts'], 'channels[1].auth.pass'],
    ['issuers', ['issuers'], 'upstream.apiKey'],
  ])('%s needs its secret: exit 2 naming the key', async (_name, args, path) => {
    const result = await runShortwatch(['-c', stack.configPath, ...args], NO_SECRETS);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${path}: environment variable`);
    expect(stack.sandbox.stats.requests).toEqual([]);
  });

  it('start and check need every secret, and name each', async () => {
    const [start, check] = await Promise.all([
      runShortwatch(['-c', stack.configPath, 'start'], NO_SECRETS),
      runShortwatch(['-c', stack.configPath, 'check'], NO_SECRETS),
    ]);
    for (const path of ['upstream.apiKey', 'channels[0].webhookUrl', 'channels[1].auth.pass']) {
      expect(start.stderr).toContain(`  - ${path}: environment variable`);
      expect(check.stdout).toContain(`FAIL  ${path}: environment variable`);
    }
    expect([start.code, check.code]).toEqual([2, 2]);
  });

  it('test-notify sends with the one secret it needs, the others still unset', async () => {
    const webhook = `${stack.slack.url}/services/T000/B000/only-this-one`;
    const result = await runShortwatch(['-c', stack.configPath, 'test-notify', 'desk'], {
      ...NO_SECRETS,
      SLACK_WEBHOOK_URL: webhook,
    });
    expect(result.code, result.stderr).toBe(0);
    await waitFor('the test message', () => stack.slack.delivered().length === 1);
    expect(`${result.stdout}${result.stderr}`).not.toContain('only-this-one');
  });
});
