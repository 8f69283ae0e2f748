import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { subscriberMail } from '../../src/app/subscriber-mail.js';
import { configSchema } from '../../src/config/schema.js';
import { DeliverySet } from '../../src/delivery/delivery-set.js';
import type { DeliveryParts } from '../../src/delivery/parts.js';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { subscriberChannel } from '../../src/routing/subscriber.js';
import { DeliveryRecord } from '../../src/state/delivery-record.js';
import { Durability } from '../../src/state/durability.js';
import { keyRoot, stateKeys } from '../../src/state/keys.js';
import { Notices } from '../../src/state/notices.js';
import { Outbox } from '../../src/state/outbox.js';
import { commitPoll } from '../../src/state/poll-commit.js';
import { StateMark } from '../../src/state/state-mark.js';
import { SubscriberStore } from '../../src/state/subscriber-store.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { DAY_MS } from '../../src/time/units.js';
import { waitFor } from '../e2e/harness.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { makeEvent } from '../routing/events.js';

const CAP = 4;
const SUBSCRIBERS = 50;
const SECRET = 'test-link-secret-0123456789-abcdefghijklmnop';
const ISSUERS = [
  { id: 'ISS-ACME', name: 'Acme Plc' },
  { id: 'ISS-BOLT', name: 'Bolt Plc' },
];

/** Who one captured e-mail went to. */
const recipient = (mail: CapturedMail) =>
  mail.parsed.to && 'value' in mail.parsed.to ? (mail.parsed.to.value[0]?.address ?? '') : '';

/** One issuer's commit, its event queued in the outbox of each subscriber listed. */
async function commitTo(t: TestRedis, subscriberIds: readonly string[], event: PositionEvent): Promise<void> {
  await commitPoll(t.redis, keyRoot(t.prefix), {
    snapshot: {
      issuerId: event.issuer.id,
      issuerName: event.issuer.name,
      positions: {},
      lastUpdated: null,
      polledAt: new Date().toISOString(),
    },
    expectedPolledAt:
      (await t.redis.hget(stateKeys(keyRoot(t.prefix)).snapshot(event.issuer.id), 'at')) ?? null,
    logged: [],
    targets: subscriberIds.map((id) => ({
      type: 'outbox' as const,
      channel: subscriberChannel(id),
      readyAt: null,
      events: [event],
    })),
    suppressed: [],
    eventsKept: 10,
  });
}

describe("subscribers' deliverers: a few per process, in turns", () => {
  let t: TestRedis;
  let smtp: SmtpCapture;
  let deliveries: DeliverySet | undefined;

  beforeEach(async () => {
    t = await createTestRedis('subscriber-cap');
    smtp = await startSmtpCapture();
  });
  afterEach(async () => {
    await deliveries?.close(5_000);
    await smtp.close();
    await t.cleanup();
  });

  it(`with ${CAP} slots drains ${SUBSCRIBERS} outboxes: each item sent once, never more than ${CAP} live, a drained one frees its slot`, {
    timeout: 120_000,
  }, async () => {
    const root = keyRoot(t.prefix);
    const config = configSchema.parse({
      upstream: { baseUrl: 'https://sandbox.invalid', apiKey: 'test' },
      // Never listened on: the links in the e-mails only need a base.
      http: { port: 9, host: '127.0.0.1' },
      channels: [
        {
          name: 'alerts',
          kind: 'email',
          host: smtp.host,
          port: smtp.port,
          secure: false,
          from: 'shortwatch@example.test',
          to: ['desk@example.test'],
          ratePerSecond: 100,
          maxConnections: 4,
        },
      ],
      subscribers: { email: 'alerts', linkSecret: SECRET, publicUrl: 'http://127.0.0.1:9/', deliverers: CAP },
    });
    const redis = t.connect();
    const logger = silentLogger();
    const now = () => new Date();
    const notices = new Notices(redis, root, {
      logger,
      now,
      opsChannel: () => undefined,
      channelsFor: () => [],
    });
    const store = new SubscriberStore(t.redis, root);
    const mail = subscriberMail(config, {
      now,
      logger,
      record: {
        record: new DeliveryRecord(redis, root),
        limits: { maxAgeMs: DAY_MS, maxRows: 10_000, maxBytes: 8 * 1024 * 1024 },
        logger,
      },
      redis,
      prefix: root,
    });
    const parts: DeliveryParts = {
      settings: () => ({ config, senders: new Map(), subscriberMail: mail }),
      prefix: root,
      processId: 'cap-test',
      redis,
      now,
      logger,
      metrics: createMetrics(),
      outbox: new Outbox(redis, root),
      notices,
      durability: new Durability({
        mark: new StateMark(redis, root),
        root,
        settings: () => ({ replicas: 0, timeoutMs: 100, noticeAfterMs: 0 }),
        notices,
        onRollback: async () => undefined,
        now: Date.now,
        logger,
      }),
      subscribers: store,
    };

    const ids: string[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const added = await store.add(
        { name: `Trader ${i}`, email: `t${i}@desk.example`, watch: { issuers: ISSUERS.map((x) => x.id) } },
        { who: 'test', via: 'cli' },
      );
      ids.push(added.id);
    }
    const [acme, bolt] = ISSUERS.map((issuer, n) => makeEvent({ id: `ev-${n}`, issuer }));
    if (!acme || !bolt) throw new Error('no events');
    // Half queued before the process starts (found by its first look), all of the second issuer after
    // (each a wake-up): 100 messages for 50 outboxes, every one with work at once.
    await commitTo(t, ids.slice(0, SUBSCRIBERS / 2), acme);
    deliveries = new DeliverySet(parts, t.connect(), async () => t.connect());
    const set = deliveries;
    let peak = 0;
    let queued = 0;
    const sample = setInterval(() => {
      const { live, waiting } = set.subscriberDeliverers();
      peak = Math.max(peak, live);
      queued = Math.max(queued, waiting);
    }, 1);
    try {
      await set.start();
      await commitTo(t, ids.slice(SUBSCRIBERS / 2), acme);
      await commitTo(t, ids, bolt);
      await waitFor('every e-mail', async () => smtp.mails.length >= SUBSCRIBERS * 2, 90_000, 50);
      // Drained: every slot given back, nothing waits, no lease left behind.
      await waitFor('every slot free', async () => set.subscriberDeliverers().live === 0, 30_000, 20);
      expect(set.subscriberDeliverers()).toEqual({ live: 0, waiting: 0 });
      const leases = await Promise.all(
        ids.map((id) => t.redis.exists(stateKeys(root).outbox(subscriberChannel(id)).lease)),
      );
      expect(leases.filter((n) => n === 1)).toEqual([]);

      // A drained outbox's slot came back: new work for one subscriber is sent at once.
      const [first = ''] = ids;
      await commitTo(t, [first], makeEvent({ id: 'ev-again', issuer: ISSUERS[0] }));
      await waitFor('the later e-mail', async () => smtp.mails.length === SUBSCRIBERS * 2 + 1, 30_000, 20);
      await waitFor('its slot free again', async () => set.subscriberDeliverers().live === 0, 30_000, 20);
    } finally {
      clearInterval(sample);
    }

    expect(peak).toBeLessThanOrEqual(CAP);
    // The cap was reached and others waited for a slot: the figure above is not a quiet run's.
    expect(peak).toBe(CAP);
    expect(queued).toBeGreaterThan(0);
    // Once per change per subscriber: two e-mails each, and the later one to the first alone.
    const perRecipient = new Map<string, number>();
    for (const mail of smtp.mails)
      perRecipient.set(recipient(mail), (perRecipient.get(recipient(mail)) ?? 0) + 1);
    expect(perRecipient.size).toBe(SUBSCRIBERS);
    expect(perRecipient.get('t0@desk.example')).toBe(3);
    expect([...perRecipient.values()].filter((n) => n !== 2)).toEqual([3]);
  });
});
