// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { isConfigError } from '../../src/config/config-error.js';
import { loadConfigWithLazySecrets } from '../../src/config/lazy-secrets.js';
import { loadConfig } from '../../src/config/load.js';
import { isSecret } from '../../src/config/secret.js';
import {
  isUnresolvedSecretError,
  resolvedSecretValues,
  UnresolvedSecret,
  unresolvedSecrets,
} from '../../src/config/unresolved-secret.js';

const dir = mkdtempSync(join(tmpdir(), 'shortwatch-lazy-'));
const SIGNING = `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`;
const PASS_FILE = join(dir, 'smtp-pass');
writeFileSync(PASS_FILE, 'file-pass-9012\n');

/** A config using every secret key, each from the environment or a file. */
function configText(overrides: Record<string, unknown> = {}, passFile = PASS_FILE): string {
  return stringify({
    upstream: { baseUrl: 'https://api.example.com', apiKey: '${API_KEY}' },
    redis: { url: '${REDIS_URL:-redis://127.0.0.1:6379}', prefix: 'lazy' },
    watchlist: [{ id: 'ISS-0001' }],
    channels: [
      { name: 'desk', kind: 'slack', webhookUrl: '${SLACK_WEBHOOK_URL}' },
      {
        name: 'alerts',
        kind: 'email',
        host: 'smtp.example.com',
        from: 'a@example.com',
        to: ['b@example.com'],
        auth: { user: 'u', passFile },
      },
      {
        name: 'relay',
        kind: 'email',
        smtpUrl: 'smtps://u:${SMTP_PASSWORD}@smtp.example.com:465',
        from: 'a@example.com',
        to: ['b@example.com'],
      },
      { name: 'risk', kind: 'webhook', url: '${RISK_URL}', signingSecret: '${RISK_SECRET}' },
    ],
    ...overrides,
  });
}

let files = 0;
function write(text: string): string {
  files += 1;
  const path = join(dir, `config-${files}.yaml`);
  writeFileSync(path, text);
  return path;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const FULL_ENV = {
  API_KEY: 'api-key-1234',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/x',
  SMTP_PASSWORD: 'smtp-pass-5678',
  RISK_URL: 'https://risk.example.com/hook',
  RISK_SECRET: SIGNING,
};

describe('loadConfigWithLazySecrets', () => {
  it.each<[string, Record<string, string>, string, (c: ReturnType<typeof loadConfig>) => unknown]>([
    ['the API key', { API_KEY: '' }, 'upstream.apiKey', (c) => c.upstream?.apiKey],
    [
      'a Slack webhook URL',
      { SLACK_WEBHOOK_URL: '' },
      'channels[0].webhookUrl',
      (c) => channel(c, 0, 'webhookUrl'),
    ],
    [
      'an SMTP password in a URL',
      { SMTP_PASSWORD: '' },
      'channels[2].smtpUrl',
      (c) => channel(c, 2, 'smtpUrl'),
    ],
    ['a webhook URL', { RISK_URL: '' }, 'channels[3].url', (c) => channel(c, 3, 'url')],
    [
      'a signing secret',
      { RISK_SECRET: '' },
      'channels[3].signingSecret',
      (c) => channel(c, 3, 'signingSecret'),
    ],
  ])(
    'an unset variable for %s: loads, and names the key when the secret is revealed',
    (_name, unset, path, pick) => {
      const file = write(configText());
      const env = { ...FULL_ENV, ...unset };
      // The strict loader (start, worker, check) refuses the same config.
      expect(thrown(() => loadConfig(file, env))).toSatisfy(isConfigError);
      const config = loadConfigWithLazySecrets(file, env);
      const secret = pick(config);
      expect(secret).toBeInstanceOf(UnresolvedSecret);
      const error = thrown(() => (isSecret(secret) ? secret.reveal() : undefined));
      expect(error).toSatisfy(isUnresolvedSecretError);
      expect(String(error)).toContain(`${path}: environment variable`);
      expect(String(secret)).toBe('[redacted]');
      expect(inspect(secret)).toBe('[redacted]');
      // Every other secret is read as given, and is what the log scrubber hides.
      expect(unresolvedSecrets(config)).toHaveLength(1);
      const scrubbed = resolvedSecretValues(config);
      for (const [name, value] of Object.entries(env)) {
        if (value !== '' && name !== 'SMTP_PASSWORD')
          expect([...scrubbed].some((s) => s.includes(value))).toBe(true);
      }
    },
  );

  it('an unreadable *File names the file key the user wrote', () => {
    const config = loadConfigWithLazySecrets(write(configText({}, join(dir, 'no-such-file'))), FULL_ENV);
    const [unread] = unresolvedSecrets(config);
    expect(unread?.problems.map((p) => p.path)).toEqual(['channels[1].auth.passFile']);
    expect(String(thrown(() => unread?.reveal()))).toContain('channels[1].auth.passFile: cannot read file');
  });

  it('with every secret set, loads exactly what the strict loader loads', () => {
    const file = write(
      configText({ channels: [{ name: 'desk', kind: 'slack', webhookUrl: '${SLACK_WEBHOOK_URL}' }] }),
    );
    const lazy = loadConfigWithLazySecrets(file, FULL_ENV);
    expect(unresolvedSecrets(lazy)).toEqual([]);
    expect(lazy.upstream?.apiKey.reveal()).toBe('api-key-1234');
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(loadConfig(file, FULL_ENV)));
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'an unset variable in a key that is not a secret',
      { ops: { channel: '${OPS_CHANNEL}' } },
      'ops.channel: environment variable OPS_CHANNEL is not set',
    ],
    [
      'a secret written empty',
      { upstream: { baseUrl: 'https://api.example.com', apiKey: '' } },
      'upstream.apiKey',
    ],
    [
      'a signing secret that is not a whsec_ key',
      { channels: [{ name: 'r', kind: 'webhook', url: 'https://x.example/h', signingSecret: 'plain' }] },
      'channels[0].signingSecret: must be a Standard Webhooks secret',
    ],
  ])('%s is still a config error', (_name, overrides, expected) => {
    const error = thrown(() => loadConfigWithLazySecrets(write(configText(overrides)), FULL_ENV));
    expect(error).toSatisfy(isConfigError);
    expect(String(error)).toContain(expected);
  });

  it('keeps a default: ${VAR:-default} in a secret key is read, not set aside', () => {
    const config = loadConfigWithLazySecrets(write(configText()), FULL_ENV);
    expect(config.redis.url.reveal()).toBe('redis://127.0.0.1:6379');
  });
});

function channel(config: ReturnType<typeof loadConfig>, index: number, key: string): unknown {
  const found: unknown = config.channels[index];
  if (typeof found !== 'object' || found === null) return undefined;
  return Object.entries(found).find(([name]) => name === key)?.[1];
}

describe('every missing variable at once', () => {
  it('names the unset secrets beside an unset plain key, in file order, and says .env is compose-only', () => {
    const path = write(configText({ upstream: { baseUrl: '${UPSTREAM_URL}', apiKey: '${API_KEY}' } }));
    let error: unknown;
    try {
      loadConfigWithLazySecrets(path, {});
    } catch (caught) {
      error = caught;
    }
    if (!isConfigError(error)) throw new Error('expected a ConfigError');
    expect(error.issues.map((issue) => issue.variable)).toEqual([
      'UPSTREAM_URL',
      'API_KEY',
      'SLACK_WEBHOOK_URL',
      'SMTP_PASSWORD',
      'RISK_URL',
      'RISK_SECRET',
    ]);
    expect(error.message).toContain('a .env file is read by docker compose, not by shortwatch');
  });
});
