import { format, inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { collectSecrets, isSecret, redactText, Secret } from '../../src/config/secret.js';

const VALUE = 'sk-live-7f3a9c1e5d';

describe('Secret', () => {
  const secret = new Secret(VALUE);

  it.each([
    ['String()', () => String(secret)],
    ['a template literal', () => `${secret}`],
    ['JSON.stringify', () => JSON.stringify({ apiKey: secret })],
    ['util.inspect', () => inspect({ apiKey: secret }, { depth: 5 })],
    ["util.format('%s')", () => format('%s', secret)],
    ["util.format('%o')", () => format('%o', { apiKey: secret })],
    ["util.format('%j')", () => format('%j', { apiKey: secret })],
    ['string concatenation', () => `key=${String(secret)}`],
  ])('renders [redacted] through %s', (_, render) => {
    const text = render();
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(VALUE);
  });

  it('gives its value only through reveal()', () => {
    expect(secret.reveal()).toBe(VALUE);
    expect(Object.keys(secret)).toEqual([]);
  });

  it.each([
    [new Secret('x'), true],
    ['x', false],
    [{ reveal: (): string => 'x' }, false],
    [null, false],
  ])('isSecret(%o) is %s', (value, expected) => {
    expect(isSecret(value)).toBe(expected);
  });
});

describe('collectSecrets', () => {
  it('finds secrets at any depth, in arrays, once each', () => {
    const found = collectSecrets({
      upstream: { apiKey: new Secret('api-key-1') },
      channels: [{ webhookUrl: new Secret('https://hooks/x') }, { auth: { pass: new Secret('api-key-1') } }],
      plain: 'not-a-secret',
    });
    expect([...found].sort()).toEqual(['api-key-1', 'https://hooks/x']);
  });

  it('skips secrets shorter than 4 characters, which would blank out ordinary text', () => {
    expect([...collectSecrets([new Secret('abc'), new Secret('abcd')])]).toEqual(['abcd']);
  });

  it('collects every secret of a parsed config', () => {
    const config = parseConfig(
      [
        'upstream: { baseUrl: "http://127.0.0.1:1", apiKey: "sk-live-AAAA1111" }',
        'redis: { url: "redis://:redis-pass-2222@127.0.0.1:6379" }',
        'channels:',
        '  - { name: desk, kind: slack, webhookUrl: "https://hooks.slack.com/services/T/B/tok3333" }',
        '  - { name: mail, kind: email, host: localhost, from: a@b.test, to: [c@d.test], auth: { user: u, pass: "smtp-pass-4444" } }',
        '  - { name: hook, kind: webhook, url: "https://example.test/h?token=tok5555", signingSecret: "whsec_hmac6666hmac6666hmac6666hmac6666" }',
      ].join('\n'),
      'inline.yaml',
      {},
    );
    expect([...collectSecrets(config)].sort()).toEqual(
      [
        'sk-live-AAAA1111',
        'redis://:redis-pass-2222@127.0.0.1:6379',
        'https://hooks.slack.com/services/T/B/tok3333',
        'smtp-pass-4444',
        'https://example.test/h?token=tok5555',
        'whsec_hmac6666hmac6666hmac6666hmac6666',
      ].sort(),
    );
    expect(JSON.stringify(config)).not.toMatch(/AAAA1111|2222|tok3333|4444|tok5555|6666/);
  });
});

describe('redactText', () => {
  it.each([
    ['no secret in the text', 'all quiet', ['secret-1'], 'all quiet'],
    ['one occurrence', 'key secret-1 sent', ['secret-1'], 'key [redacted] sent'],
    ['every occurrence', 'secret-1/secret-1', ['secret-1'], '[redacted]/[redacted]'],
    ['several secrets', 'a=secret-1 b=secret-2', ['secret-1', 'secret-2'], 'a=[redacted] b=[redacted]'],
    ['an empty secret is ignored', 'text', [''], 'text'],
    ['regex characters are taken literally', 'p=a.b*c+?', ['a.b*c+?'], 'p=[redacted]'],
    ['nothing to hide', 'text', [], 'text'],
  ])('%s', (_, text, secrets, expected) => {
    expect(redactText(text, secrets)).toBe(expected);
  });
});
