// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFailure, EXIT } from '../../src/cli/exit.js';
import { type ConfigIssue, isConfigError } from '../../src/config/config-error.js';
import { configPath, loadConfig, parseConfig } from '../../src/config/load.js';
import { REGISTER_KINDS } from '../../src/config/schema/sources.js';

const dir = mkdtempSync(join(tmpdir(), 'shortwatch-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENV = { SHORTWATCH_API_KEY: 'sk-test-key-0001' };
const UPSTREAM = 'upstream: { baseUrl: https://shorts.example.com/api, apiKey: "${SHORTWATCH_API_KEY}" }';

function yaml(...lines: string[]): string {
  return [UPSTREAM, ...lines].join('\n');
}

function tempFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The issues a config is rejected with; fails the test when it is accepted. */
function issuesOf(text: string, env: NodeJS.ProcessEnv = ENV): readonly ConfigIssue[] {
  try {
    parseConfig(text, 'test.yaml', env);
  } catch (error) {
    if (isConfigError(error)) return error.issues;
    throw error;
  }
  throw new Error('the config was accepted');
}

const SLACK = 'kind: slack, webhookUrl: https://hooks.slack.invalid/x';
const DIGEST = 'kind: console, mode: digest, schedule: "30 7 * * 1-5"';

describe('parseConfig rejects, naming the key path', () => {
  it.each<[string, string, NodeJS.ProcessEnv, ConfigIssue]>([
    [
      'an unknown key (webhookURL)',
      yaml('channels: [{ name: desk, kind: slack, webhookURL: https://hooks.slack.invalid/x }]'),
      ENV,
      { path: 'channels[0].webhookURL', message: 'unknown key (did you mean webhookUrl?)', line: 2 },
    ],
    [
      'the required key that typo left out',
      yaml('channels: [{ name: desk, kind: slack, webhookURL: https://hooks.slack.invalid/x }]'),
      ENV,
      { path: 'channels[0].webhookUrl', message: 'is required' },
    ],
    [
      'an unset environment variable',
      yaml(),
      {},
      {
        path: 'upstream.apiKey',
        message: 'environment variable SHORTWATCH_API_KEY is not set',
        variable: 'SHORTWATCH_API_KEY',
      },
    ],
    [
      'a duration typo',
      yaml('poll: { interval: 5mins }'),
      ENV,
      { path: 'poll.interval', message: '"5mins" is not a duration (use e.g. 90s, 2m, 6h, 7d)' },
    ],
    [
      'an invalid quiet-hours time zone',
      yaml(
        `channels: [{ name: desk, ${SLACK}, quietHours: { start: "20:00", end: "07:00", timezone: Europe/Londn } }]`,
      ),
      ENV,
      { path: 'channels[0].quietHours.timezone', message: 'is not an IANA time zone (e.g. Europe/London)' },
    ],
    [
      'an invalid digest time zone',
      yaml(`channels: [{ name: daily, ${DIGEST}, timezone: London }]`),
      ENV,
      { path: 'channels[0].timezone', message: 'is not an IANA time zone (e.g. Europe/London)' },
    ],
    [
      'a digest channel without a schedule',
      yaml('channels: [{ name: daily, kind: console, mode: digest }]'),
      ENV,
      { path: 'channels[0].schedule', message: 'is required for a digest channel' },
    ],
    [
      'quiet hours on a digest channel',
      yaml(
        `channels: [{ name: daily, ${DIGEST}, quietHours: { start: "20:00", end: "07:00", timezone: UTC } }]`,
      ),
      ENV,
      { path: 'channels[0].quietHours', message: 'applies to immediate channels only' },
    ],
    [
      'foldInto naming a channel that is not a digest',
      yaml(
        `channels: [{ name: desk, ${SLACK}, quietHours: { start: "20:00", end: "07:00", timezone: UTC, foldInto: desk } }]`,
      ),
      ENV,
      { path: 'channels[0].quietHours.foldInto', message: '"desk" is not a digest channel' },
    ],
    [
      'ops.channel naming an unknown channel',
      yaml(`channels: [{ name: desk, ${SLACK} }]`, 'ops: { channel: pager }'),
      ENV,
      { path: 'ops.channel', message: 'no channel named "pager"' },
    ],
    [
      'budget.reserve equal to budget.perDay',
      yaml('budget: { perDay: 100, reserve: 100 }'),
      ENV,
      { path: 'budget.reserve', message: 'must be smaller than budget.perDay' },
    ],
    [
      'a duplicate channel name',
      yaml(`channels: [{ name: desk, ${SLACK} }, { name: desk, kind: console }]`),
      ENV,
      { path: 'channels[1].name', message: 'duplicate channel name "desk"' },
    ],
    [
      'a duplicate source name',
      yaml(
        'sources: [{ name: afm, kind: afm-current, url: http://127.0.0.1/a.csv }, { name: afm, kind: no-ssr-json, url: http://127.0.0.1/n.json }]',
      ),
      ENV,
      { path: 'sources[1].name', message: 'duplicate source name "afm"' },
    ],
    [
      'a register kind shortwatch cannot read',
      yaml('sources: [{ name: bafin, kind: de-bafin, url: http://127.0.0.1/b.csv }]'),
      ENV,
      {
        path: 'sources[0].kind',
        message: `Invalid option: expected one of ${REGISTER_KINDS.map((k) => `"${k}"`).join('|')}`,
      },
    ],
    [
      'a source name that cannot be part of a key',
      yaml('sources: [{ name: "AFM:NL", kind: afm-current, url: http://127.0.0.1/a.csv }]'),
      ENV,
      {
        path: 'sources[0].name',
        message: 'must be lower-case letters, digits and -, starting with a letter',
      },
    ],
    [
      'a source read over plain http from a remote host',
      yaml('sources: [{ name: afm, kind: afm-current, url: http://www.afm.nl/export.csv }]'),
      ENV,
      {
        path: 'sources[0].url',
        message:
          'must be https:// (a file read in clear can be altered on the way); plain http:// is accepted for a loopback host (127.0.0.0/8, ::1, localhost) or with allowInsecure: true on the source',
      },
    ],
    [
      "Sweden's aggregate file over plain http from a remote host",
      yaml(
        'sources: [{ name: fi, kind: se-fi-current, url: https://fi.se/a.ods, aggregateUrl: http://fi.se/b.ods }]',
      ),
      ENV,
      {
        path: 'sources[0].aggregateUrl',
        message:
          'must be https:// (a file read in clear can be altered on the way); plain http:// is accepted for a loopback host (127.0.0.0/8, ::1, localhost) or with allowInsecure: true on the source',
      },
    ],
    [
      'an email channel without smtpUrl or host',
      yaml('channels: [{ name: mail, kind: email, from: a@example.com, to: [b@example.com] }]'),
      ENV,
      { path: 'channels[0]', message: 'needs smtpUrl or host' },
    ],
    [
      'both apiKey and apiKeyFile',
      yaml(
        'upstream: { baseUrl: https://shorts.example.com/api, apiKey: x, apiKeyFile: /run/secrets/key }',
      ).replace(`${UPSTREAM}\n`, ''),
      ENV,
      { path: 'upstream.apiKeyFile', message: 'set either apiKey or apiKeyFile, not both' },
    ],
    [
      'an unreadable ${file:...}',
      yaml(`redis: { url: "\${file:${join(dir, 'absent')}}" }`),
      ENV,
      { path: 'redis.url', message: `cannot read file ${join(dir, 'absent')} (ENOENT)` },
    ],
    [
      'subscribers.webhook naming a channel that is not a webhook',
      yaml(
        `channels: [{ name: desk, ${SLACK} }, { name: mail, kind: email, host: smtp.invalid, from: a@b.example, to: [c@d.example] }]`,
        'http: { port: 9464 }',
        'subscribers: { email: mail, webhook: desk, linkSecret: "0123456789abcdef0123456789abcdef", publicUrl: "http://127.0.0.1:9464/" }',
      ),
      ENV,
      { path: 'subscribers.webhook', message: '"desk" is not a webhook channel' },
    ],
    [
      'subscribers.slack naming no channel',
      yaml(
        'channels: [{ name: mail, kind: email, host: smtp.invalid, from: a@b.example, to: [c@d.example] }]',
        'http: { port: 9464 }',
        'subscribers: { email: mail, slack: desk-app, linkSecret: "0123456789abcdef0123456789abcdef", publicUrl: "http://127.0.0.1:9464/" }',
      ),
      ENV,
      { path: 'subscribers.slack', message: '"desk-app" is not a slack-app channel' },
    ],
  ])('%s', (_, text, env, issue) => {
    // The lines are the next test's: here, what each issue says and where in the config.
    const issues = issuesOf(text, env);
    const withoutLine = issues.map(({ line: _line, ...rest }) => rest);
    expect('line' in issue ? issues : withoutLine).toContainEqual(issue);
  });

  it("places a bad value at its key's line, an array item at its own, and a missing key at none", () => {
    const text = [
      'upstream: { baseUrl: https://api.example.com, apiKey: k }',
      'redis: { url: redis://127.0.0.1:6379 }',
      'poll:',
      '  interval: 5mins',
      'channels:',
      '  - name: desk',
      '    kind: slack',
      '    url: https://hooks.example.com/x',
      '    minValue: lots',
    ].join('\n');
    const issues = issuesOf(text);
    expect(issues.find((i) => i.path === 'poll.interval')?.line).toBe(4);
    expect(issues.find((i) => i.path === 'channels[0].minValue')?.line).toBe(9);
    expect(
      issuesOf('upstream: { apiKey: k }').find((i) => i.path === 'upstream.baseUrl')?.line,
    ).toBeUndefined();
  });

  it('reports YAML syntax errors without a key path, at their line, with the whole code frame', () => {
    const [issue, ...rest] = issuesOf('upstream: [unclosed');
    expect(rest).toEqual([]);
    expect(issue?.path).toBe('');
    expect(issue?.message).toMatch(/^YAML: /);
    const text = yaml('channels:', '  - name: desk', '    filter: { holders: [Marshall Wace', 'poll: {}');
    let caught: unknown;
    try {
      parseConfig(text, 'config.yaml', ENV);
    } catch (error) {
      caught = error;
    }
    if (!isConfigError(caught)) throw new Error('expected a ConfigError');
    // The frame names the line, shows it, and puts a caret under the fault, each line indented under the issue.
    expect(caught.message).toContain(
      ['', '        filter: { holders: [Marshall Wace', '    poll: {}', '    ^'].join('\n'),
    );
    expect(caught.message).toMatch(/\n {2}- config\.yaml:5: YAML: [^\n]+:\n\n/);
  });

  it.each<[string, string, string]>([
    [
      'a misspelt channel key',
      '    fliter: { holders: [Marshall Wace] }',
      'channels[0].fliter: unknown key (did you mean filter?)',
    ],
    [
      'a misspelt key of one channel kind',
      '    webhookURL: https://hooks.slack.invalid/y',
      'channels[0].webhookURL: unknown key (did you mean webhookUrl?)',
    ],
    [
      'a misspelt filter key',
      '    filter: { holdres: [Marshall Wace] }',
      'channels[0].filter.holdres: unknown key (did you mean holders?)',
    ],
    ['a key near nothing', '    colour: red', 'channels[0].colour: unknown key'],
  ])('names an unknown key at its line, with the key meant: %s', (_, line, expected) => {
    const text = yaml(
      'channels:',
      '  - name: desk',
      '    kind: slack',
      '    webhookUrl: https://hooks.slack.invalid/x',
      line,
    );
    let caught: unknown;
    try {
      parseConfig(text, 'config.yaml', ENV);
    } catch (error) {
      caught = error;
    }
    if (!isConfigError(caught)) throw new Error('expected a ConfigError');
    expect(caught.message.split('\n')).toContain(`  - config.yaml:6: ${expected}`);
  });

  it('a misspelt section is named with the section meant', () => {
    expect(issuesOf(yaml('pol: { interval: 2m }'))).toContainEqual({
      path: 'pol',
      message: 'unknown key (did you mean poll?)',
      line: 2,
    });
  });

  it('reports several problems at once, each with its path, and the CLI exits 2', () => {
    const text = [
      'upstream: { baseUrl: not-a-url, apiKey: "${MISSING_KEY}" }',
      'pol: { interval: 2m }',
      'budget: { perMinute: 0 }',
      'channels: [{ name: desk, kind: slack, webhookURL: https://hooks.slack.invalid/x }]',
    ].join('\n');
    let caught: unknown;
    try {
      parseConfig(text, 'test.yaml', {});
    } catch (error) {
      caught = error;
    }
    if (!isConfigError(caught)) throw new Error('expected a ConfigError');
    const paths = caught.issues.map((i) => i.path);
    for (const path of [
      'upstream.apiKey',
      'upstream.baseUrl',
      'pol',
      'budget.perMinute',
      'channels[0].webhookURL',
    ]) {
      expect(paths).toContain(path);
      expect(caught.message).toMatch(
        new RegExp(`\\n {2}- (test\\.yaml:\\d+: )?${path.replace(/[.[\]]/g, '\\$&')}: `),
      );
    }
    expect(describeFailure(caught).exitCode).toBe(EXIT.usage);
    expect(EXIT.usage).toBe(2);
  });
});

describe('interpolation', () => {
  it.each<[string, string, NodeJS.ProcessEnv, string]>([
    ['${VAR:-default} with VAR unset', '${HOST:-127.0.0.1}', {}, '127.0.0.1'],
    ['${VAR:-default} with VAR empty', '${HOST:-127.0.0.1}', { HOST: '' }, '127.0.0.1'],
    ['${VAR:-default} with VAR set', '${HOST:-127.0.0.1}', { HOST: '10.0.0.7' }, '10.0.0.7'],
    ['a default holding a colon', '${HOST:-::1}', {}, '::1'],
    ['${VAR} inside other text', 'host-${N}.internal', { N: '3' }, 'host-3.internal'],
    ['$$ as a literal dollar', 'a$$b', {}, 'a$b'],
  ])('%s', (_, value, env, expected) => {
    const config = parseConfig(yaml(`http: { host: "${value}" }`), 'test.yaml', { ...ENV, ...env });
    expect(config.http.host).toBe(expected);
  });

  it.each([
    ['${file:...}', (path: string) => `apiKey: "\${file:${path}}"`],
    ['apiKeyFile', (path: string) => `apiKeyFile: ${path}`],
  ])('%s reads a file and strips its trailing newline', (name, key) => {
    const path = tempFile(`${name.replace(/\W/g, '')}.key`, 'sk-from-file-42\n');
    const text = `upstream: { baseUrl: https://shorts.example.com/api, ${key(path)} }`;
    expect(parseConfig(text, 'test.yaml', {}).upstream?.apiKey.reveal()).toBe('sk-from-file-42');
  });

  it('strips a CRLF line ending from a secret file', () => {
    const path = tempFile('crlf.key', 'sk-crlf\r\n');
    const text = `upstream: { baseUrl: https://shorts.example.com/api, apiKeyFile: ${path} }`;
    expect(parseConfig(text, 'test.yaml', {}).upstream?.apiKey.reveal()).toBe('sk-crlf');
  });
});

describe('secrets', () => {
  const SECRETS = {
    SHORTWATCH_API_KEY: 'sk-live-5ecr3t-api',
    SLACK_WEBHOOK_URL: 'https://hooks.slack.invalid/services/T1/B2/s3cr3tpath',
    SMTP_PASSWORD: 'smtp-hunter2-pass',
    REDIS_URL: 'redis://:redis-pw-9876@127.0.0.1:6379',
    SIGNING: 'whsec_signing5678signing5678signing5678abc',
  };
  const text = [
    UPSTREAM,
    'redis: { url: "${REDIS_URL}" }',
    'channels:',
    '  - { name: desk, kind: slack, webhookUrl: "${SLACK_WEBHOOK_URL}" }',
    '  - name: mail',
    '    kind: email',
    '    host: smtp.example.com',
    '    auth: { user: me, pass: "${SMTP_PASSWORD}" }',
    '    from: a@example.com',
    '    to: [b@example.com]',
    '  - { name: hook, kind: webhook, url: "${SLACK_WEBHOOK_URL}", signingSecret: "${SIGNING}" }',
  ].join('\n');

  it.each([
    ['JSON.stringify', (config: unknown) => JSON.stringify(config)],
    ['util.inspect', (config: unknown) => inspect(config, { depth: null })],
    ['a template literal', (config: unknown) => `${JSON.stringify(config)} ${String(config)}`],
  ])('print as [redacted] through %s', (_, print) => {
    const output = print(parseConfig(text, 'test.yaml', SECRETS));
    expect(output).toContain('[redacted]');
    for (const value of Object.values(SECRETS)) expect(output).not.toContain(value);
  });

  it('stay out of error messages', () => {
    const broken = text.replace('https://shorts.example.com/api', 'not-a-url');
    try {
      parseConfig(broken, 'test.yaml', SECRETS);
      throw new Error('the config was accepted');
    } catch (error) {
      if (!isConfigError(error)) throw error;
      expect(error.issues.map((i) => i.path)).toEqual(['upstream.baseUrl']);
      for (const value of Object.values(SECRETS)) expect(error.message).not.toContain(value);
    }
  });
});

describe('loadConfig and configPath', () => {
  it.each<[string, string | undefined, NodeJS.ProcessEnv, string]>([
    ['--config first', 'a.yaml', { SHORTWATCH_CONFIG: 'b.yaml' }, 'a.yaml'],
    ['then SHORTWATCH_CONFIG', undefined, { SHORTWATCH_CONFIG: 'b.yaml' }, 'b.yaml'],
    ['then config/shortwatch.yaml', undefined, {}, 'config/shortwatch.yaml'],
  ])('configPath: %s', (_, flag, env, expected) => {
    expect(configPath(flag, env)).toBe(expected);
  });

  it('loads a file from disk', () => {
    const path = tempFile('ok.yaml', yaml('log: { level: debug }'));
    expect(loadConfig(path, ENV).log.level).toBe('debug');
  });

  it('names a missing file as the problem', () => {
    const path = join(dir, 'nope.yaml');
    expect(() => loadConfig(path, ENV)).toThrow(
      expect.objectContaining({
        source: path,
        issues: [{ path: '', message: 'cannot read the config file (ENOENT)' }],
      }),
    );
  });
});
