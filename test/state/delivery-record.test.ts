import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AttemptRow, DeliveryRecord, ROW_OVERHEAD_BYTES } from '../../src/state/delivery-record.js';
import { stateKeys } from '../../src/state/keys.js';
import { RECORD_MEMORY_FACTOR } from '../../src/state/retention.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const DAY_MS = 86_400_000;
const KEEP = { maxAgeMs: 400 * DAY_MS, maxRows: 250_000, maxBytes: 64 * 1024 * 1024 };

/** A typical e-mail row: one issuer, two holders, as the deliverer writes it. */
function rowOf(n: number, overrides: Partial<AttemptRow> = {}): AttemptRow {
  return {
    channel: 'alerts',
    channelKind: 'email',
    deliveryId: `d-1a2b3c4d-${String(n).padStart(24, '0')}`,
    messageId: `<d-1a2b3c4d-${String(n).padStart(24, '0')}@example.com>`,
    type: 'events',
    issuers: [{ id: `GB00B${String(n).padStart(6, '0')}`, name: 'Ocado Group plc' }],
    holders: ['Marshall Wace LLP', 'D. E. Shaw & Co., L.P.'],
    kinds: ['increased', 'opened'],
    events: 2,
    eventIds: [`e${String(n).padStart(32, '0')}`, `e${String(n + 1).padStart(32, 'f')}`],
    disclosedOn: ['2026-11-25', '2026-11-26'],
    firstSeen: ['2026-11-26T09:14:07.512Z'],
    answer: 'ok',
    ...overrides,
  };
}

describe('the record of sent messages', () => {
  let t: TestRedis;
  let record: DeliveryRecord;

  beforeEach(async () => {
    t = await createTestRedis('record');
    record = new DeliveryRecord(t.redis, t.prefix);
  });
  afterEach(async () => t.cleanup());

  it('reads back what it wrote, on Redis time, oldest first through pages and newest first', async () => {
    const failed = rowOf(1, {
      answer: 'error',
      action: 'retry',
      cause: 'rollup_error',
      status: 500,
      error: 'x',
    });
    await record.append(failed, KEEP);
    await record.append(rowOf(1), KEEP);
    const pages = [];
    for await (const page of record.pages(0, Number.MAX_SAFE_INTEGER)) pages.push(...page);
    expect(pages.map((r) => [r.answer, r.status ?? null])).toEqual([
      ['error', 500],
      ['ok', null],
    ]);
    expect(pages[0]).toMatchObject(failed);
    const [first, second] = pages;
    if (!first || !second) throw new Error('two rows expected');
    expect(second.at).toBeGreaterThanOrEqual(first.at);
    const newest = await record.newest(0, Number.MAX_SAFE_INTEGER, 1);
    expect(newest.map((r) => r.id)).toEqual([second.id]);
    // A time range reads only its rows: nothing before the first one was recorded.
    expect(await record.newest(0, first.at - 1, 10)).toEqual([]);
  });

  it('pages through more rows than one read returns, in order, leaving unreadable entries out', async () => {
    const pipeline = t.redis.pipeline();
    for (let n = 0; n < 2_345; n += 1)
      pipeline.xadd(stateKeys(t.prefix).record, `${1_000 + n}-0`, 'a', JSON.stringify(rowOf(n)));
    pipeline.xadd(stateKeys(t.prefix).record, '9000-0', 'a', '{not json');
    await pipeline.exec();
    const seen: number[] = [];
    for await (const page of record.pages(1_000, 9_000)) seen.push(...page.map((r) => r.at));
    expect(seen).toHaveLength(2_345);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const backwards: number[] = [];
    for await (const page of record.pages(1_000, 9_000, true)) backwards.push(...page.map((r) => r.at));
    expect(backwards).toEqual([...seen].reverse());
    const middle = [];
    for await (const page of record.pages(1_100, 1_199)) middle.push(...page);
    expect(middle).toHaveLength(100);
  });

  it('keeps at most maxRows, the newest', async () => {
    for (let n = 0; n < 1_500; n += 1) await record.append(rowOf(n), { ...KEEP, maxRows: 1_000 });
    expect(await record.size()).toBe(1_000);
    const rows = await record.newest(0, Number.MAX_SAFE_INTEGER, 1_500);
    expect(rows.at(-1)?.deliveryId).toBe(rowOf(500).deliveryId);
  });

  it.each([0, 10, 40, 45, 100, 150])(
    'keeps its rows within maxBytes, the newest, whatever a row carries (batches of %i issuers after typical rows)',
    async (width) => {
      const maxBytes = 200_000;
      const limits = { ...KEEP, maxBytes };
      // Typical rows, then batches listing `width` issuers each: the bound is bytes, not rows.
      for (let n = 0; n < 400; n += 1) await record.append(rowOf(n), limits);
      const wide = (n: number) =>
        rowOf(n, {
          issuers: Array.from({ length: width }, (_, i) => ({ id: `GB${n}-${i}`, name: `Issuer ${i} plc` })),
        });
      for (let n = 400; n < 700; n += 1) await record.append(wide(n), limits);
      const rows = await record.newest(0, Number.MAX_SAFE_INTEGER, 10_000);
      const held = rows.reduce((sum, r) => {
        const { id: _id, at: _at, ...row } = r;
        return sum + Buffer.byteLength(JSON.stringify(row)) + ROW_OVERHEAD_BYTES;
      }, 0);
      expect(held).toBeLessThanOrEqual(maxBytes);
      // At its bound: one more of the oldest kept would not have fitted.
      expect(held).toBeGreaterThan(
        maxBytes - Buffer.byteLength(JSON.stringify(wide(0))) - 2 * ROW_OVERHEAD_BYTES,
      );
      expect(await record.bytes()).toBe(held);
      expect(rows[0]?.deliveryId).toBe(rowOf(699).deliveryId);
      // Redis' own memory for the rows stays within the factor the ceiling allows above the count.
      const memory = Number(await t.redis.memory('USAGE', stateKeys(t.prefix).record, 'SAMPLES', 0));
      expect(memory).toBeLessThan(maxBytes * RECORD_MEMORY_FACTOR);
    },
  );

  it('counts the rows of a record written before the byte bound from its newest, then trims to it', async () => {
    const key = stateKeys(t.prefix).record;
    for (let n = 0; n < 500; n += 1) await t.redis.xadd(key, '*', 'a', JSON.stringify(rowOf(n)));
    const each = Buffer.byteLength(JSON.stringify(rowOf(0))) + ROW_OVERHEAD_BYTES;
    await record.append(rowOf(500), { ...KEEP, maxBytes: 100 * each });
    expect(await record.size()).toBeLessThanOrEqual(101);
    expect(await record.size()).toBeGreaterThanOrEqual(95);
  });

  it('drops rows older than maxAge on the next write (measured on Redis time)', async () => {
    const key = stateKeys(t.prefix).record;
    // 300 rows recorded at the start of the epoch: far older than any retention.
    for (let n = 0; n < 300; n += 1) await t.redis.xadd(key, `${1_000 + n}-0`, 'a', JSON.stringify(rowOf(n)));
    await record.append(rowOf(999), { ...KEEP, maxAgeMs: DAY_MS });
    const rows = await record.newest(0, Number.MAX_SAFE_INTEGER, 1_000);
    expect(rows.map((r) => r.deliveryId)).toEqual([rowOf(999).deliveryId]);
  });

  it('a typical row costs under 700 bytes of Redis memory (the figure docs/operations.md gives)', async () => {
    const rows = 2_000;
    for (let n = 0; n < rows; n += 1) await record.append(rowOf(n), KEEP);
    const bytes = Number(await t.redis.memory('USAGE', stateKeys(t.prefix).record, 'SAMPLES', 0));
    expect(bytes / rows).toBeLessThan(700);
    expect(bytes / rows).toBeGreaterThan(200);
  });
});
