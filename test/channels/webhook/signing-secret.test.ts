// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { describe, expect, it } from 'vitest';
import { type ConfigIssue, isConfigError } from '../../../src/config/config-error.js';
import { parseConfig } from '../../../src/config/load.js';
import { standardWebhooksSecretProblem } from '../../../src/config/schema/standard-webhooks-secret.js';

const HOW_TO = 'must be a Standard Webhooks secret: "whsec_" followed by the base64 of 24 to 64 random bytes';

/** `whsec_` and the base64 of `bytes` bytes. */
function whsec(bytes: number): string {
  return `whsec_${Buffer.alloc(bytes, 0xa7).toString('base64')}`;
}

/** A config with one webhook channel; `secretLine` is the rest of its flow mapping. */
function configText(secretLine: string): string {
  return [
    'upstream: { baseUrl: "https://shorts.example.com/api", apiKey: "${API_KEY}" }',
    'channels:',
    `  - { name: hook, kind: webhook, url: "\${HOOK_URL}"${secretLine} }`,
  ].join('\n');
}

/** The issues a config is rejected with, or [] when it is accepted. */
function issuesOf(secretLine: string, env: NodeJS.ProcessEnv = {}): readonly ConfigIssue[] {
  try {
    parseConfig(configText(secretLine), 'test.yaml', { API_KEY: 'k', HOOK_URL: 'https://r.test/in', ...env });
    return [];
  } catch (error) {
    if (isConfigError(error)) return error.issues;
    throw error;
  }
}

describe('webhook signingSecret', () => {
  it.each([
    { name: 'whsec_ + 24 bytes (the spec minimum)', value: whsec(24), problem: undefined },
    { name: 'whsec_ + 32 bytes (openssl rand -base64 32)', value: whsec(32), problem: undefined },
    { name: 'whsec_ + 64 bytes (the spec maximum)', value: whsec(64), problem: undefined },
    { name: 'a plain passphrase', value: 'correct horse battery staple', problem: HOW_TO },
    { name: 'base64 without the prefix', value: whsec(32).slice(6), problem: HOW_TO },
    {
      name: 'URL-safe base64',
      value: 'whsec_-_-_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      problem: 'is not base64',
    },
    { name: 'base64 missing its padding', value: whsec(32).replace(/=+$/, ''), problem: 'is not base64' },
    { name: 'too short a key (16 bytes)', value: whsec(16), problem: 'it decodes to 16 bytes' },
    { name: 'too long a key (65 bytes)', value: whsec(65), problem: 'it decodes to 65 bytes' },
  ])('$name', ({ value, problem }) => {
    const found = standardWebhooksSecretProblem(value);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it('is accepted from the environment and kept as a Secret', () => {
    const config = parseConfig(configText(', signingSecret: "${HOOK_SECRET}"'), 'test.yaml', {
      API_KEY: 'k',
      HOOK_URL: 'https://r.test/in',
      HOOK_SECRET: whsec(32),
    });
    const [channel] = config.channels;
    expect(channel?.kind === 'webhook' && channel.signingSecret.reveal()).toBe(whsec(32));
    expect(JSON.stringify(channel)).not.toContain(whsec(32).slice(6));
  });

  it('is required: every call is signed', () => {
    expect(issuesOf('')).toEqual([{ path: 'channels[0].signingSecret', message: 'is required' }]);
  });

  it('names the key and how to make one, and never quotes the value', () => {
    const plain = 'hunter2-plain-secret';
    const issues = issuesOf(', signingSecret: "${HOOK_SECRET}"', { HOOK_SECRET: plain });
    expect(issues.map((issue) => issue.path)).toEqual(['channels[0].signingSecret']);
    expect(issues[0]?.message).toContain(HOW_TO);
    expect(issues[0]?.message).toContain('openssl rand -base64 32');
    expect(JSON.stringify(issues)).not.toContain(plain);
  });
});
