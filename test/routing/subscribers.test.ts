import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../../src/config/schema.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { planSubscribers } from '../../src/routing/plan-subscribers.js';
import {
  type Subscriber,
  subscriberRouteChannel,
  subscriberRouteOf,
  subscriberSchema,
  webhookShown,
} from '../../src/routing/subscriber.js';
import { readLink, signLink } from '../../src/routing/subscriber-links.js';

const SECRET = 'x'.repeat(40);
const NOW = Date.parse('2026-11-28T12:00:00Z');

describe('subscriber links', () => {
  const claim = {
    subscriberId: 'abc123',
    generation: 2,
    purpose: 'manage' as const,
    expiresAt: NOW + 60_000,
  };

  it('reads back what it signed, for its purpose and until it expires', () => {
    const token = signLink(SECRET, claim);
    expect(readLink(SECRET, token, 'manage', NOW)).toEqual({
      ok: true,
      claim: { ...claim, expiresAt: Math.floor(claim.expiresAt / 1000) * 1000 },
    });
  });

  it.each([
    ['another key', (t: string) => readLink('y'.repeat(40), t, 'manage', NOW), 'forged'],
    [
      'a changed generation',
      (t: string) => readLink(SECRET, t.replace('.2.', '.3.'), 'manage', NOW),
      'forged',
    ],
    ['another purpose', (t: string) => readLink(SECRET, t, 'unsubscribe', NOW), 'wrong-purpose'],
    ['after its expiry', (t: string) => readLink(SECRET, t, 'manage', NOW + 61_000), 'expired'],
    [
      'a cut token',
      (t: string) => readLink(SECRET, t.split('.').slice(0, 3).join('.'), 'manage', NOW),
      'malformed',
    ],
  ])('refuses %s', (_name, read, refusal) => {
    expect(read(signLink(SECRET, claim))).toEqual({ ok: false, refusal });
  });

  it('refuses its signature spelt another way that decodes to the same bytes', () => {
    // A 32-byte MAC is 43 base64url characters; the last one carries 4 bits and 2 unused ones, so a
    // lenient decoder reads four spellings as one. Found by the e2e test's tampered link, which changed
    // the last character and was still accepted about one run in sixteen.
    const token = signLink(SECRET, claim);
    const respelled = token.replace(/.$/, (c) => BASE64URL[BASE64URL.indexOf(c) ^ 1] ?? c);
    const signature = (t: string) => Buffer.from(t.split('.')[4] ?? '', 'base64url');
    expect(respelled).not.toBe(token);
    expect(signature(respelled)).toEqual(signature(token));
    expect(readLink(SECRET, respelled, 'manage', NOW)).toEqual({ ok: false, refusal: 'forged' });
  });
});

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function subscriber(
  over: Partial<Subscriber['watch']> & { prefs?: Partial<Subscriber['prefs']>; unsubscribedAt?: string },
): Subscriber {
  return subscriberSchema.parse({
    id: 'ann00001',
    name: 'Ann',
    email: 'ann@desk.example',
    watch: { issuers: over.issuers ?? [], holders: over.holders ?? [] },
    prefs: over.prefs ?? {},
    version: 1,
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    ...(over.unsubscribedAt ? { unsubscribedAt: over.unsubscribedAt } : {}),
  });
}

function event(id: string, holder: string, issuer = { id: 'ISS-1', name: 'Fugro N.V.' }): PositionEvent {
  return {
    id,
    kind: 'increased',
    issuer,
    holder,
    holderKey: holder.toLowerCase().replace(/[^a-z0-9]/g, ''),
    previous: { value: 0.6, date: '2026-11-27' },
    current: { value: 0.8, date: '2026-11-28' },
    delta: 0.2,
    issuerTotal: { before: 0.6, after: 0.8 },
    detectedAt: new Date(NOW).toISOString(),
  } as PositionEvent;
}

const template = {
  name: 'traders',
  kind: 'email',
  from: 'alerts@desk.example',
  to: ['desk@desk.example'],
  host: '127.0.0.1',
  filter: {},
  mode: 'immediate',
  timezone: 'UTC',
  sendEmpty: false,
  everyChange: false,
  attempts: 8,
  backoff: 2000,
  ratePerSecond: 25,
  maxConnections: 5,
} as Extract<ChannelConfig, { kind: 'email' }>;

describe('planSubscribers', () => {
  const events = [event('e1', 'Marshall Wace LLP'), event('e2', 'Citadel Advisors')];
  const plan = (s: Subscriber) => planSubscribers(events, [s], { email: template }, [], new Date(NOW));

  it('sends a followed issuer every holder, to their own channel', () => {
    const [target] = plan(subscriber({ issuers: ['fugro n.v.'] }));
    expect(target?.channel).toBe('~ann00001');
    expect(target?.events.map((e) => e.id)).toEqual(['e1', 'e2']);
  });

  it('sends a holder followed anywhere that holder only, saying what it leaves out', () => {
    const [target] = plan(subscriber({ holders: ['Marshall Wace'] }));
    expect(target?.events.map((e) => e.id)).toEqual(['e1']);
    expect(target?.events[0]?.hidden).toEqual({ count: 1, delta: 0.2 });
  });

  it('sends nothing to a subscriber who follows neither, who left, or whose minimum it misses', () => {
    expect(plan(subscriber({ issuers: ['ASML'] }))).toEqual([]);
    expect(plan(subscriber({ issuers: ['Fugro N.V.'], unsubscribedAt: '2026-11-20T00:00:00Z' }))).toEqual([]);
    expect(plan(subscriber({ issuers: ['Fugro N.V.'], prefs: { paused: true } }))).toEqual([]);
    expect(plan(subscriber({ issuers: ['Fugro N.V.'], prefs: { minDelta: 0.5 } }))).toEqual([]);
  });
});

describe("a subscriber's routes as channel names", () => {
  it.each([
    ['~ab12cd', { id: 'ab12cd', route: 'mail' }],
    ['~ab12cd-digest', { id: 'ab12cd', route: 'digest' }],
    ['~ab12cd-hook', { id: 'ab12cd', route: 'webhook' }],
    ['~ab12cd-dm', { id: 'ab12cd', route: 'slack' }],
    ['desk', undefined],
    ['desk-digest', undefined],
  ] as const)('%s', (channel, expected) => {
    expect(subscriberRouteOf(channel)).toEqual(expected);
    if (expected) expect(subscriberRouteChannel(expected.id, expected.route)).toBe(channel);
  });

  it.each([
    ['https://hooks.example.com/T0/B0/secretpath', 'https://hooks.example.com/…'],
    ['https://hooks.example.com/?token=abc', 'https://hooks.example.com/…'],
    ['https://hooks.example.com', 'https://hooks.example.com'],
  ])('shows the webhook %s as %s (never its path or query)', (url, shown) => {
    expect(webhookShown(url)).toBe(shown);
  });
});
