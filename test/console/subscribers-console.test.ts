import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createConsole } from '../../src/console/handler.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import { type Subscriber, subscriberChannel, subscriberDigestChannel } from '../../src/routing/subscriber.js';
import { manageLink } from '../../src/routing/subscriber-links.js';
import { DeliveryRecord } from '../../src/state/delivery-record.js';
import { stateKeys } from '../../src/state/keys.js';
import { Lease } from '../../src/state/lease.js';
import type { Inflight } from '../../src/state/outbox.js';
import { type Stack, startStack } from '../e2e/harness.js';

// The console's Subscribers pages over HTTP against real Redis: the store's records and audit trail,
// the subscribers' outboxes (queued, parked, staged) and the record of what each received. No daemon:
// the rows and items are written by the same stores the daemon uses.

const SECRET = 'console-subscribers-link-secret-0123456789';
const TOKEN = 'console-subscribers-token-5a1f-9b0e7c3d';
const HOSTILE = 'Zed <b>Bold</b> "Trader"';

let stack: Stack;
let app: App;
let server: Server;
let base = '';
let ann: Subscriber;
let bo: Subscriber;
let cy: Subscriber;
let zed: Subscriber;

const desk = { who: 'desk-lead', via: 'cli', from: 'desk-host.example' } as const;

function parkedInflight(id: string): Inflight {
  return {
    deliveryId: `d-${id}`,
    message: { type: 'notice', key: 'k', severity: 'info', title: 't', text: 'x' },
    eventIds: [id],
    attempts: 3,
    partsSent: 0,
    nextAttemptAt: 0,
    claimedAt: 0,
  };
}

/** One of Ann's messages parked for good, as a deliverer parks it: queued, claimed, finished as parked. */
async function parkOne(channel: string): Promise<void> {
  const outbox = app.ctx.outbox;
  await outbox.enqueue(channel, 'e-parked', { type: 'test', channel, sentAt: '2026-11-28T10:00:00Z' });
  const lease = new Lease(app.redis, stateKeys(app.ctx.prefix).outbox(channel).lease, 'test', 5_000);
  expect(await lease.take()).toBe(true);
  expect(await outbox.claim(channel, 'test', parkedInflight('e-parked'), ['e-parked'])).toBe('claimed');
  expect(await outbox.finish(channel, 'test', parkedInflight('e-parked'), 'parked', 3)).toBe(true);
  await lease.release();
}

beforeAll(async () => {
  stack = await startStack({
    issuers: 1,
    channels: ['email'],
    config: {
      http: { port: 0, host: '127.0.0.1', auth: { token: TOKEN }, allowedHosts: ['alerts.example'] },
      subscribers: { email: 'alerts', linkSecret: SECRET, publicUrl: 'https://alerts.example/' },
    },
  });
  app = await stack.openApp();
  const started = await startHttpServer(app, 0, '127.0.0.1', createConsole(app));
  server = started.server;
  base = `http://127.0.0.1:${started.port}`;
  const store = app.ctx.subscribers;
  ann = await store.add(
    {
      name: 'Ann Trader',
      email: 'ann@desk.example',
      watch: { issuers: ['Fugro N.V.', 'ASML Holding N.V.', 'NL0000009165'], holders: ['Marshall Wace'] },
    },
    desk,
  );
  ann = await store.update(ann.id, (s) => ({ ...s, prefs: { ...s.prefs, minValue: 0.6 } }), {
    who: 'ops-lead',
    via: 'cli',
    from: 'ops-box.example',
  });
  bo = await store.add(
    {
      name: 'Bo Digest',
      email: 'bo@desk.example',
      watch: { issuers: ['Shell plc'] },
      prefs: { mode: 'both', digestSchedule: '0 17 * * 1-5', timezone: 'Europe/London' },
    },
    desk,
  );
  bo = await store.update(bo.id, (s) => ({ ...s, prefs: { ...s.prefs, paused: true } }), desk);
  cy = await store.add({ name: 'Cy Gone', email: 'cy@desk.example' }, desk);
  cy = await store.update(
    cy.id,
    (s) => ({ ...s, unsubscribedAt: '2026-11-27T09:15:00.000Z' }),
    { who: 'cy@desk.example', via: 'one-click', from: '203.0.113.9' },
    'unsubscribed',
  );
  zed = await store.add({ name: HOSTILE, email: 'zed@desk.example' }, desk);

  // Ann: one message queued, one parked, and two received (one of them Bo's, which is not hers).
  const immediate = subscriberChannel(ann.id);
  await parkOne(immediate);
  await app.ctx.outbox.enqueue(immediate, 'e-queued', { type: 'test', channel: immediate, sentAt: '' });
  const record = new DeliveryRecord(app.redis, app.ctx.prefix);
  const row = (channel: string, issuer: string, holder: string) => ({
    channel,
    channelKind: 'email',
    deliveryId: `dl-${issuer}`,
    messageId: `<dl-${issuer}@alerts.example>`,
    type: 'events',
    issuers: [{ id: issuer, name: `${issuer} N.V.` }],
    holders: [holder],
    kinds: ['increased'],
    events: 1,
    answer: 'ok' as const,
  });
  const limits = { maxAgeMs: 90 * 86_400_000, maxRows: 10_000, maxBytes: 8 * 1024 * 1024 };
  await record.append(row(immediate, 'FUGRO', 'Ann Holder Capital'), limits);
  await record.append(row(subscriberDigestChannel(ann.id), 'ASML', 'Ann Digest Capital'), limits);
  await record.append(row(subscriberChannel(bo.id), 'SHELL', 'Bo Holder Capital'), limits);
  await record.append(row('alerts', 'DESK', 'Desk Only Capital'), limits);
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.stop(2_000);
  await stack?.cleanup();
});

async function get(
  path: string,
  signedIn = true,
): Promise<{ status: number; body: string; location: string | null }> {
  // The operator's token as a Bearer header: the Subscribers pages sit behind it like every other page.
  const response = await fetch(`${base}${path}`, {
    headers: signedIn ? { authorization: `Bearer ${TOKEN}` } : {},
    redirect: 'manual',
  });
  return { status: response.status, body: await response.text(), location: response.headers.get('location') };
}

/** The table row of one subscriber on the list. */
function rowOf(body: string, id: string): string {
  return new RegExp(`<tr data-subscriber="${id}">.*?</tr>`, 's').exec(body)?.[0] ?? '';
}

describe('the Subscribers pages of the console', () => {
  it('are behind the console token', async () => {
    const signedOut = await get('/subscribers', false);
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toBe('/login?next=%2Fsubscribers');
    expect(signedOut.body).not.toContain('Ann Trader');
    expect((await get(`/subscribers/${ann.id}`, false)).body).not.toContain('ann@desk.example');
  });

  it('lists every subscriber: what they follow in short, how, their state with when, their outbox', async () => {
    const { status, body } = await get('/subscribers');
    expect(status).toBe(200);
    expect(body).toContain('<a href="/subscribers" aria-current="page">Subscribers</a>');
    expect(body).toContain('4 subscribers (2 active, 1 paused, 1 unsubscribed)');
    const annRow = rowOf(body, ann.id);
    expect(annRow).toContain(`href="/subscribers/${ann.id}"`);
    expect(annRow).toContain('ann@desk.example');
    expect(annRow).toContain('Fugro N.V., ASML Holding N.V. +1 more; holders anywhere: Marshall Wace');
    expect(annRow).toContain('at once');
    expect(annRow).toContain('class="ok">active');
    expect(annRow).toContain('1 queued');
    expect(annRow).toContain('class="bad">1 parked');
    const boRow = rowOf(body, bo.id);
    expect(boRow).toContain('at once and digest 0 17 * * 1-5 (Europe/London)');
    expect(boRow).toMatch(/class="warn">paused<\/span><br><span class="muted" title="\d{4}-\d\d-\d\d /);
    const cyRow = rowOf(body, cy.id);
    expect(cyRow).toContain('class="bad">unsubscribed');
    expect(cyRow).toContain('title="2026-11-27 09:15:00 UTC"');
    expect(cyRow).toContain('nothing yet');
    // A name is text, never markup.
    expect(rowOf(body, zed.id)).toContain('Zed &lt;b&gt;Bold&lt;/b&gt; &quot;Trader&quot;');
  });

  it('finds subscribers by name or address', async () => {
    const { body } = await get('/subscribers?q=DESK.example+digest');
    expect(body).toContain('1 of 4 subscribers match');
    expect(rowOf(body, bo.id)).not.toBe('');
    expect(rowOf(body, ann.id)).toBe('');
  });

  it('shows one subscriber: watchlist, preferences, outbox, who changed what from where, what they received', async () => {
    const { status, body } = await get(`/subscribers/${ann.id}`);
    expect(status).toBe(200);
    expect(body).toContain('<h1>Ann Trader</h1>');
    for (const issuer of ['Fugro N.V.', 'ASML Holding N.V.', 'NL0000009165', 'Marshall Wace'])
      expect(body).toContain(`<li>${issuer}</li>`);
    expect(body).toMatch(/<th scope="row">Positions of at least<\/th><td>0[.,]60?%<\/td>/);
    expect(body).toContain('<p id="outbox">1 queued · <span class="bad">1 parked</span></p>');
    const audit = /<table id="audit">.*?<\/table>/s.exec(body)?.[0] ?? '';
    expect(audit).toMatch(
      /<td>edited<\/td><td>prefs\.minValue<\/td><td class="num">2<\/td><td>ops-lead<\/td><td>cli<\/td><td>ops-box\.example<\/td>/,
    );
    expect(audit).toMatch(
      /<td>added<\/td><td><\/td><td class="num">1<\/td><td>desk-lead<\/td><td>cli<\/td><td>desk-host\.example<\/td>/,
    );
    const received = /<table id="record">.*?<\/table>/s.exec(body)?.[0] ?? '';
    expect(received).toContain('Ann Holder Capital');
    expect(received).toContain('Ann Digest Capital');
    expect(received).not.toContain('Bo Holder Capital');
    expect(received).not.toContain('Desk Only Capital');
    // No link of theirs and no secret: the page is the operator's view, not a way into theirs.
    const link = manageLink(app.settings.config, ann, new Date()) ?? '';
    const token = link.split('/').at(-1) ?? '';
    expect(token.length).toBeGreaterThan(10);
    expect(body).not.toContain(token.slice(0, 24));
    expect(body).not.toMatch(/\/(me|unsubscribe)\//);
    expect(body).not.toContain(SECRET);
  });

  it('shows who unsubscribed and through what, and a subscriber that is gone is a 404', async () => {
    const { body } = await get(`/subscribers/${cy.id}`);
    expect(body).toMatch(
      /<td>unsubscribed<\/td><td>unsubscribedAt<\/td><td class="num">2<\/td><td>cy@desk\.example<\/td><td>one-click<\/td><td>203\.0\.113\.9<\/td>/,
    );
    expect(body).toContain('nothing received in this span');
    const missing = await get('/subscribers/nosuch00');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('No subscriber');
  });

  it('the store keeps when a pause began across later edits, and forgets it on resume', async () => {
    const store = app.ctx.subscribers;
    const pausedAt = bo.pausedAt;
    expect(pausedAt).toMatch(/^\d{4}-/);
    const edited = await store.update(bo.id, (s) => ({ ...s, name: 'Bo Renamed' }), desk);
    expect(edited.pausedAt).toBe(pausedAt);
    const resumed = await store.update(bo.id, (s) => ({ ...s, prefs: { ...s.prefs, paused: false } }), desk);
    expect(resumed.pausedAt).toBeUndefined();
    expect((await store.audit(bo.id, 1))[0]?.changed).toEqual(['prefs.paused']);
  });
});
