// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { configKeyDocs, type KeyDoc } from '../../scripts/config-docs.js';
import { parseConfig } from '../../src/config/load.js';
import { uncomment } from './example-text.js';

const EXAMPLE_PATH = 'config/example.yaml';
const example = readFileSync(new URL('../../config/example.yaml', import.meta.url), 'utf8');
const docs = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const { keys } = configKeyDocs();

const ENV = {
  SHORTWATCH_UPSTREAM_URL: 'https://shorts.example.com/api',
  SHORTWATCH_API_KEY: 'sk-example-api-key',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.invalid/services/T0/B0/desk',
  SMTP_URL: 'smtps://shortwatch%40example.com:smtp-password@mail.example.com:465',
};
const FILES: Record<string, string> = {
  '/run/secrets/smtp_url': 'smtps://u:smtp-password-from-file@mail.example.com:465\n',
  '/run/secrets/shortwatch_api_key': 'sk-example-api-key-from-file\n',
  '/run/secrets/redis_url': 'redis://127.0.0.1:6379\n',
  '/run/secrets/slack_desk_webhook': 'https://hooks.slack.invalid/services/T0/B0/desk\n',
  '/run/secrets/slack_ops_webhook': 'https://hooks.slack.invalid/services/T0/B0/ops\n',
};

function readText(path: string): string {
  const text = FILES[path];
  if (text === undefined) throw Object.assign(new Error(`no fake file ${path}`), { code: 'ENOENT' });
  return text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tag(kind: string | undefined, path: string): string {
  return kind === undefined ? path : `${kind}:${path}`;
}

/** Every key path in a parsed YAML tree, with the kind of the channel it sits in. */
function pathsOf(node: unknown, prefix: string, kind: string | undefined, out: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) {
      const itemKind =
        prefix === 'channels' && isRecord(item) && typeof item.kind === 'string' ? item.kind : kind;
      pathsOf(item, `${prefix}[]`, itemKind, out);
    }
  } else if (isRecord(node)) {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      out.add(tag(kind, path));
      pathsOf(value, path, kind, out);
    }
  }
  return out;
}

/** Every string value in a parsed YAML tree, with its key path (`[]` for a list item). */
function stringLeaves(node: unknown, prefix: string): Array<[string, string]> {
  if (typeof node === 'string') return [[prefix, node]];
  if (Array.isArray(node)) return node.flatMap((item) => stringLeaves(item, `${prefix}[]`));
  if (!isRecord(node)) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    stringLeaves(value, prefix ? `${prefix}.${key}` : key),
  );
}

function untagged(path: string): string {
  // A kind may have a hyphen (`slack-app`).
  return path.replace(/^[a-z-]+:/, '');
}

function tagOf(key: KeyDoc): string {
  return tag(key.kind, key.path);
}

/** Drops `<key>File` where `<key>` is also given, as a user enabling an alternative would. */
function dropFileAlternatives(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropFileAlternatives);
  if (!isRecord(node)) return node;
  const entries = Object.entries(node).filter(([key]) => !(key.endsWith('File') && key.slice(0, -4) in node));
  return Object.fromEntries(entries.map(([key, value]) => [key, dropFileAlternatives(value)]));
}

const enabled: unknown = parse(uncomment(example));
const examplePaths = pathsOf(enabled, '', undefined, new Set());
const schemaKeys = keys.filter((k) => k.fileFor === undefined);

describe('config/example.yaml', () => {
  const config = parseConfig(example, EXAMPLE_PATH, ENV, readText);

  it('validates against the schema with a fake environment and secret files', () => {
    expect(config.channels.map((c) => [c.name, c.kind, c.mode])).toEqual([
      ['desk', 'slack', 'immediate'],
      ['holders-alert', 'email', 'immediate'],
      ['daily-digest', 'email', 'digest'],
      ['ops', 'email', 'immediate'],
    ]);
    expect(config.ops.channel).toBe('ops');
    expect(config.upstream?.apiKey.reveal()).toBe(ENV.SHORTWATCH_API_KEY);
    expect(new URL(config.upstream?.baseUrl ?? '').hostname).toBe('shorts.example.com');
    expect(config.redis.url.reveal()).toBe('redis://127.0.0.1:6379');
    expect(config.watchlist).toContainEqual({ id: 'ISS-0001', label: 'Quayside' });
    expect(config.watchlist).toContainEqual({ name: 'Borealis Mining plc' });
  });

  it('shows the three channels the README promises, each with a filter', () => {
    const [desk, alert, digest] = config.channels;
    expect(desk?.filter.minValue).toBe(0.5);
    expect(desk?.kind === 'slack' && desk.webhookUrl.reveal()).toBe(ENV.SLACK_WEBHOOK_URL);
    expect(alert?.filter.holders).toContain('D. E. Shaw');
    expect(alert?.filter.thresholds).toEqual([0.5, 1, 2]);
    expect(alert?.quietHours).toMatchObject({ timezone: 'Europe/London', foldInto: 'daily-digest' });
    expect(alert?.kind === 'email' && alert.smtpUrl?.reveal()).toBe(ENV.SMTP_URL);
    expect(digest).toMatchObject({ schedule: '30 7 * * 1-5', timezone: 'Europe/London' });
    expect(digest?.filter.issuers).toEqual(['ISS-0001', 'Borealis Mining plc']);
    expect(digest?.kind === 'email' && digest.smtpUrl?.reveal()).toBe(ENV.SMTP_URL);
  });

  it('still validates with every commented-out key enabled (ops, webhook and console channels too)', () => {
    const env = {
      ...ENV,
      SMTP_PASSWORD: 'smtp-password-from-env',
      SLACK_OPS_WEBHOOK_URL: 'https://hooks.slack.invalid/services/T0/B0/ops',
      RISK_WEBHOOK_URL: 'https://risk.example.com/in',
      TEAMS_WEBHOOK_URL: 'https://teams.example.com/workflows/1/triggers/manual/paths/invoke?sig=x',
      SLACK_BOT_TOKEN: 'xoxb-example-bot-token',
      REDIS_PASSWORD: 'redis-password-from-env',
      REDIS_SENTINEL_PASSWORD: 'sentinel-password-from-env',
      SHORTWATCH_HTTP_TOKEN: 'http-token-from-env-0123456789abcdefghij',
      SHORTWATCH_LINK_SECRET: 'link-secret-from-env-0123456789abcdef',
    };
    const text = stringify(dropFileAlternatives(enabled));
    const all = parseConfig(
      text,
      EXAMPLE_PATH,
      { ...env, RISK_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}` },
      readText,
    );
    expect(all.channels.map((c) => c.kind)).toEqual([
      'slack',
      'email',
      'email',
      'email',
      'webhook',
      'console',
      'teams',
      'slack-app',
    ]);
    expect(all.ops).toEqual({ channel: 'ops', heartbeat: '0 8 * * 1-5' });
  });

  it.each(schemaKeys.map((k) => [tagOf(k), k] as const))('shows %s', (_, key) => {
    const shown = [...examplePaths].filter(
      (p) => p === tagOf(key) || (!key.kind && untagged(p) === key.path),
    );
    expect(shown).not.toEqual([]);
  });

  it('uses only keys the schema knows, each under the right channel kind', () => {
    const known = new Set(keys.map(tagOf));
    const unknown = [...examplePaths].filter((p) => !known.has(p) && !known.has(untagged(p)));
    expect(unknown).toEqual([]);
  });

  it('gives every key line (active or commented out) a one-line comment', () => {
    const keyLines = example
      .split('\n')
      .filter((line) => /^\s*(#\s*)?(- )?[a-z][A-Za-z0-9]*:( |$)/.test(line));
    expect(keyLines.length).toBeGreaterThan(90);
    expect(keyLines.filter((line) => !/\s#\s\S/.test(line.replace(/^\s*#\s/, '')))).toEqual([]);
  });

  it('never writes a secret inline: secrets come from ${VAR} or a file', () => {
    // By key path, not key name: a register's public `sources[].url` is no secret, `channels[].url` is.
    const secretPaths = new Set(keys.filter((k) => k.type === 'secret').map((k) => k.path));
    const inline = stringLeaves(parse(uncomment(example)), '')
      .filter(([path]) => secretPaths.has(path))
      .filter(([, value]) => !/^\$\{[A-Z_]+(:-(redis:\/\/127\.0\.0\.1:6379)?)?\}$/.test(value));
    expect(inline).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  it.each(keys.map((k) => [k.path, k] as const))('documents %s', (path) => {
    expect(docs).toContain(`| \`${path}\` |`);
  });
});
