// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
// config/example.yaml, .env.example and the README tell a new user one story: the variables to set, which
// of them are required, and what the example's watchlist names mean against `shortwatch sandbox`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ConfigIssue, isConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/load.js';
import { resolveWatchlist } from '../../src/jobs/watchlist.js';
import { createScenario } from '../../src/sandbox/index.js';
import { uncomment } from './example-text.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const example = read('config/example.yaml');
const envExample = read('.env.example');
const readme = read('README.md');

const PLACEHOLDER = /\$\{([A-Z][A-Z0-9_]*)(?::-([^}]*))?\}/g;

/** No file is readable: the example must work from the environment alone. */
function noFiles(path: string): string {
  throw Object.assign(new Error(`no such file ${path}`), { code: 'ENOENT' });
}

function strings(node: unknown, into: string[] = []): string[] {
  if (typeof node === 'string') into.push(node);
  else if (Array.isArray(node)) for (const item of node) strings(item, into);
  else if (node !== null && typeof node === 'object')
    for (const item of Object.values(node)) strings(item, into);
  return into;
}

/** `${NAME}` → required; `${NAME:-default}` → its default. Only from the active (uncommented) lines. */
function activePlaceholders(): Map<string, string | undefined> {
  const found = new Map<string, string | undefined>();
  for (const text of strings(parse(example))) {
    for (const [, name = '', fallback] of text.matchAll(PLACEHOLDER)) found.set(name, fallback);
  }
  return found;
}

const active = activePlaceholders();
const required = [...active].filter(([, fallback]) => fallback === undefined).map(([name]) => name);
/** `NAME=value` lines of .env.example: what a user must fill in. */
const envSet = new Map([...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]]));
/** `# NAME=value` lines: optional variables, shown with their default. */
const envShown = new Map([...envExample.matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]]));

/** A value for each required variable, as a user would fill in .env. */
const ENV: Record<string, string> = {
  SHORTWATCH_UPSTREAM_URL: 'https://shorts.example.com/api',
  SHORTWATCH_API_KEY: 'sk-example-api-key',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.invalid/services/T0/B0/desk',
  SMTP_URL: 'smtp://shortwatch:smtp-password@smtp.example.com:587',
};

function issuesOf(env: NodeJS.ProcessEnv): readonly ConfigIssue[] {
  try {
    parseConfig(example, 'config/example.yaml', env, noFiles);
    return [];
  } catch (error) {
    if (isConfigError(error)) return error.issues;
    throw error;
  }
}

describe('.env.example and config/example.yaml', () => {
  it('.env.example sets exactly the variables the example requires', () => {
    expect([...envSet.keys()].sort()).toEqual([...required].sort());
    expect(Object.keys(ENV).sort()).toEqual([...required].sort());
  });

  it('.env.example shows each optional variable commented out, with the default the example uses', () => {
    const optional = [...active].filter(([, fallback]) => fallback !== undefined);
    expect(optional.map(([name]) => name).sort()).toEqual([
      'REDIS_URL',
      'SHORTWATCH_BUDGET_PER_DAY',
      'SHORTWATCH_DIGEST_SCHEDULE',
      'SHORTWATCH_GATE_INTERVAL',
      'SHORTWATCH_HTTP_CONSOLE',
      'SHORTWATCH_HTTP_HOST',
      'SHORTWATCH_HTTP_PORT',
      'SHORTWATCH_HTTP_TOKEN',
      'SHORTWATCH_REDIS_PREFIX',
    ]);
    for (const [name, fallback] of optional) expect(envShown.get(name), name).toBe(fallback);
  });

  it('lists every variable the example names, commented-out keys included, and no other', () => {
    const named = new Set(
      strings(parse(uncomment(example))).flatMap((text) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1])),
    );
    const listed = new Set([...envSet.keys(), ...envShown.keys()]);
    expect([...named].filter((name) => !listed.has(name))).toEqual([]);
    expect([...listed].filter((name) => !named.has(name))).toEqual([]);
  });

  it('validates with only the required variables set and no secret file on disk', () => {
    expect(issuesOf(ENV)).toEqual([]);
    const config = parseConfig(example, 'config/example.yaml', ENV, noFiles);
    expect(config.redis.prefix).toBe('shortwatch');
    // Probes on this machine only, no console until asked for.
    expect(config.http).toMatchObject({ port: 9464, host: '127.0.0.1', console: false });
    expect(config.http.auth.token).toBeUndefined();
  });

  it('SHORTWATCH_HTTP_CONSOLE=true alone serves the console on loopback, where it needs no token', () => {
    const config = parseConfig(
      example,
      'config/example.yaml',
      { ...ENV, SHORTWATCH_HTTP_CONSOLE: 'true' },
      noFiles,
    );
    expect(config.http).toMatchObject({ host: '127.0.0.1', console: true });
    expect(config.http.auth.token).toBeUndefined();
  });

  it('beyond loopback the console needs SHORTWATCH_HTTP_TOKEN: without it one issue names http.auth.token', () => {
    const open = { ...ENV, SHORTWATCH_HTTP_HOST: '0.0.0.0', SHORTWATCH_HTTP_CONSOLE: 'true' };
    expect(issuesOf(open).map((issue) => issue.path)).toEqual(['http.auth.token']);
    expect(issuesOf({ ...open, SHORTWATCH_HTTP_TOKEN: '' }).map((issue) => issue.path)).toEqual([
      'http.auth.token',
    ]);
    const config = parseConfig(
      example,
      'config/example.yaml',
      { ...open, SHORTWATCH_HTTP_TOKEN: 'tk-1-0123456789abcdefghijklmnopqrstuv' },
      noFiles,
    );
    expect(config.http.auth.token?.reveal()).toBe('tk-1-0123456789abcdefghijklmnopqrstuv');
    // The probes alone need no token anywhere.
    expect(issuesOf({ ...ENV, SHORTWATCH_HTTP_HOST: '0.0.0.0' })).toEqual([]);
  });

  it("the dry run's pace: SHORTWATCH_BUDGET_PER_DAY and SHORTWATCH_GATE_INTERVAL, each checked at its key", () => {
    const config = parseConfig(
      example,
      'config/example.yaml',
      { ...ENV, SHORTWATCH_BUDGET_PER_DAY: '20000', SHORTWATCH_GATE_INTERVAL: '10s' },
      noFiles,
    );
    expect([config.budget.perDay, config.poll.gateInterval]).toEqual([20_000, 10_000]);
    const shipped = parseConfig(example, 'config/example.yaml', ENV, noFiles);
    expect([shipped.budget.perDay, shipped.poll.gateInterval]).toEqual([1_000, 120_000]);
    expect(issuesOf({ ...ENV, SHORTWATCH_BUDGET_PER_DAY: 'lots' }).map((issue) => issue.path)).toEqual([
      'budget.perDay',
    ]);
  });

  it('SHORTWATCH_HTTP_CONSOLE takes true or false only, naming http.console otherwise', () => {
    const line = example.split('\n').findIndex((text) => text.includes('${SHORTWATCH_HTTP_CONSOLE')) + 1;
    expect(issuesOf({ ...ENV, SHORTWATCH_HTTP_CONSOLE: 'yes' })).toEqual([
      { path: 'http.console', message: 'must be true or false', line },
    ]);
  });

  it.each(required)('without %s: one issue per key that names it, and nothing else', (name) => {
    const env = { ...ENV, [name]: undefined };
    const keys = example
      .split('\n')
      .filter((line) => !/^\s*#/.test(line) && line.includes(`\${${name}}`))
      .map((line) => /^\s*(?:- )?([A-Za-z]+):/.exec(line)?.[1]);
    const issues = issuesOf(env);
    expect(issues.map((i) => i.message)).toEqual(keys.map(() => `environment variable ${name} is not set`));
    expect(issues.map((i) => i.path.split('.').at(-1))).toEqual(keys);
  });
});

describe('README "Using it for real"', () => {
  const section = readme.slice(readme.indexOf('## Using it for real'));

  it('exports every variable the example requires', () => {
    const exports = [...section.matchAll(/^export (.+)$/gm)].map((m) => m[1] ?? '').join(' ');
    const exported = new Set([...exports.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]));
    expect(required.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('names no variable that .env.example does not list', () => {
    const listed = new Set([...envSet.keys(), ...envShown.keys()]);
    const named = [...readme.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
    expect(named.filter((name) => !listed.has(name))).toEqual([]);
  });
});

describe("the example's issuers against `shortwatch sandbox` (its default world: seed 1, 12 issuers)", () => {
  const directory = createScenario({ seed: 1, issuers: 12 }).issuers();
  const config = parseConfig(example, 'config/example.yaml', ENV, noFiles);

  it('every watchlist entry resolves, each to another issuer', () => {
    const { watched, problems } = resolveWatchlist(config.watchlist, directory);
    expect(problems).toEqual([]);
    expect(watched.map((w) => w.id)).toEqual(['ISS-0001', 'ISS-0007', 'ISS-0010']);
  });

  it('every issuer a channel filter names is a watched issuer', () => {
    const { watched } = resolveWatchlist(config.watchlist, directory);
    const known = new Set(watched.flatMap((w) => [w.id, w.name]));
    const named = config.channels.flatMap((c) => c.filter.issuers ?? []);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((issuer) => !known.has(issuer))).toEqual([]);
  });
});
