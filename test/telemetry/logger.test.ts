import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { createLogger, silentLogger } from '../../src/telemetry/logger.js';

const API_KEY = 'sk-live-7f3a9c1e5d';
const WEBHOOK_PATH = '/services/T0SECRET/B0SECRET/xoxSECRETtoken123';
const WEBHOOK = `https://hooks.slack.com${WEBHOOK_PATH}`;
const TRICKY = 'pa"ss\\wo\trd-42';

/** A logger writing into memory; `text()` is everything written so far. */
function capture(options: { format?: 'json' | 'pretty'; level?: string; secrets?: Iterable<string> } = {}) {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({
    level: options.level ?? 'debug',
    format: options.format ?? 'json',
    secrets: options.secrets ?? [API_KEY, WEBHOOK, WEBHOOK_PATH, TRICKY],
    destination,
    isTTY: false,
  });
  return { logger, text: () => chunks.join('') };
}

// Each secret as written and as JSON escapes it: either would give it away.
const SECRETS = [
  API_KEY,
  WEBHOOK,
  WEBHOOK_PATH,
  'xoxSECRETtoken123',
  TRICKY,
  JSON.stringify(TRICKY).slice(1, -1),
];

describe('createLogger redaction', () => {
  it.each([
    {
      name: 'in the message',
      write: (l: ReturnType<typeof capture>['logger']) => l.info(`key is ${API_KEY}`),
    },
    {
      name: 'in a field',
      write: (l: ReturnType<typeof capture>['logger']) => l.warn({ url: WEBHOOK }, 'posting'),
    },
    {
      name: 'in a nested field',
      write: (l: ReturnType<typeof capture>['logger']) =>
        l.debug({ request: { headers: { authorization: `Bearer ${API_KEY}` } } }, 'req'),
    },
    {
      name: "in an error's message and stack",
      write: (l: ReturnType<typeof capture>['logger']) =>
        l.error({ err: new Error(`POST ${WEBHOOK} failed`) }, 'send failed'),
    },
    {
      name: 'as a path inside other text',
      write: (l: ReturnType<typeof capture>['logger']) => l.info(`got 404 for ${WEBHOOK_PATH}?x=1`),
    },
    {
      name: 'with characters JSON escapes (quote, backslash, tab)',
      write: (l: ReturnType<typeof capture>['logger']) => l.info({ pass: TRICKY }, `auth with ${TRICKY}`),
    },
  ])('a secret $name comes out [redacted]', ({ write }) => {
    for (const format of ['json', 'pretty'] as const) {
      const { logger, text } = capture({ format });
      write(logger);
      const out = text();
      expect(out).toContain('[redacted]');
      for (const secret of SECRETS) expect(out).not.toContain(secret);
    }
  });

  it('a Secret value logged as a field renders [redacted] even when not listed', () => {
    const { logger, text } = capture({ secrets: [] });
    logger.info({ apiKey: new Secret('unlisted-secret-value') }, 'config');
    expect(JSON.parse(text())).toMatchObject({ apiKey: '[redacted]', msg: 'config' });
    expect(text()).not.toContain('unlisted-secret-value');
  });

  it('writes one JSON line per entry with level, time and message, and leaves other text alone', () => {
    const { logger, text } = capture();
    logger.info({ issuerId: 'ISS-0001', events: 2 }, 'poll found changes');
    const line = JSON.parse(text());
    expect(line).toMatchObject({ level: 30, issuerId: 'ISS-0001', events: 2, msg: 'poll found changes' });
    expect(typeof line.time).toBe('string');
    expect(text().endsWith('\n')).toBe(true);
  });

  it('scrubs a secret added to its set after it was created (a reload brings new secrets)', () => {
    const secrets = new Set([API_KEY]);
    const { logger, text } = capture({ secrets });
    const added = 'smtp-pass-added-by-reload-91';
    logger.info(`before ${added}`);
    secrets.add(added);
    logger.info(`after ${added}`);
    const [before, after] = text().trim().split('\n');
    expect(before).toContain(added);
    expect(after).not.toContain(added);
    expect(after).toContain('after [redacted]');
  });

  it('drops entries below its level', () => {
    const { logger, text } = capture({ level: 'warn' });
    logger.info('not written');
    logger.debug(`nor this ${API_KEY}`);
    logger.warn('written');
    expect(
      text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).msg),
    ).toEqual(['written']);
  });

  it('silentLogger writes nothing at any level', () => {
    const logger = silentLogger();
    expect(logger.level).toBe('silent');
    expect(logger.isLevelEnabled('fatal')).toBe(false);
  });
});
