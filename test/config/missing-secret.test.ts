// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { describe, expect, it } from 'vitest';
import { type ConfigIssue, isConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/load.js';

const BASE_URL = 'baseUrl: https://shorts.example.com/api';
const MAIL = 'kind: email, host: smtp.example.com, from: a@example.com, to: [b@example.com]';

/** No file exists: every secret file read fails the way a missing Docker secret does. */
function noFiles(path: string): string {
  throw Object.assign(new Error(`no such file ${path}`), { code: 'ENOENT' });
}

/** The issues a config is rejected with; fails the test when it is accepted. */
function issuesOf(text: string, env: NodeJS.ProcessEnv = {}): readonly ConfigIssue[] {
  try {
    parseConfig(text, 'test.yaml', env, noFiles);
  } catch (error) {
    if (isConfigError(error)) return error.issues;
    throw error;
  }
  throw new Error('the config was accepted');
}

// A secret that cannot be had is one problem, told once at the key the user wrote: the schema's
// "must not be empty" or "is required" for the key the file or variable was meant to fill only repeats it.
describe('a missing secret is one issue, at the key that names it', () => {
  it.each<[string, string, ConfigIssue]>([
    [
      'an unset ${VAR}',
      `upstream: { ${BASE_URL}, apiKey: "\${SHORTWATCH_API_KEY}" }`,
      {
        path: 'upstream.apiKey',
        message: 'environment variable SHORTWATCH_API_KEY is not set',
        variable: 'SHORTWATCH_API_KEY',
      },
    ],
    [
      'an unreadable ${file:...}',
      `upstream: { ${BASE_URL}, apiKey: "\${file:/run/secrets/api_key}" }`,
      { path: 'upstream.apiKey', message: 'cannot read file /run/secrets/api_key (ENOENT)' },
    ],
    [
      'an unreadable apiKeyFile',
      `upstream: { ${BASE_URL}, apiKeyFile: /run/secrets/api_key }`,
      { path: 'upstream.apiKeyFile', message: 'cannot read file /run/secrets/api_key (ENOENT)' },
    ],
    [
      'an unreadable auth.passFile',
      [
        `upstream: { ${BASE_URL}, apiKey: sk-test }`,
        `channels: [{ name: mail, ${MAIL}, auth: { user: me, passFile: /run/secrets/smtp_password } }]`,
      ].join('\n'),
      {
        path: 'channels[0].auth.passFile',
        message: 'cannot read file /run/secrets/smtp_password (ENOENT)',
      },
    ],
    [
      'an unreadable webhookUrlFile',
      [
        `upstream: { ${BASE_URL}, apiKey: sk-test }`,
        'channels: [{ name: desk, kind: slack, webhookUrlFile: /run/secrets/slack }]',
      ].join('\n'),
      { path: 'channels[0].webhookUrlFile', message: 'cannot read file /run/secrets/slack (ENOENT)' },
    ],
    [
      'an unset ${VAR} inside an SMTP URL',
      [
        `upstream: { ${BASE_URL}, apiKey: sk-test }`,
        'channels: [{ name: mail, kind: email, smtpUrl: "${SMTP_URL}", from: a@example.com, to: [b@example.com] }]',
      ].join('\n'),
      {
        path: 'channels[0].smtpUrl',
        message: 'environment variable SMTP_URL is not set',
        variable: 'SMTP_URL',
      },
    ],
  ])('%s', (_, text, issue) => {
    expect(issuesOf(text)).toEqual([issue]);
  });

  it('still reports the other problems of the same config', () => {
    const text = [
      `upstream: { baseUrl: not-a-url, apiKeyFile: /run/secrets/api_key }`,
      'budget: { perMinute: 0 }',
    ].join('\n');
    expect(issuesOf(text).map((i) => i.path)).toEqual([
      'upstream.apiKeyFile',
      'upstream.baseUrl',
      'budget.perMinute',
    ]);
  });
});
