import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelSchema } from '../../src/config/schema.js';
import { attemptRow } from '../../src/delivery/attempt-row.js';
import { EXPORT_COLUMNS, exportChunks } from '../../src/record/export.js';
import { DeliveryRecord } from '../../src/state/delivery-record.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { makeEvent } from '../routing/events.js';

const slack = channelSchema.parse({ name: 'desk', kind: 'slack', webhookUrl: 'https://hooks.example.com/x' });
const KEEP = { maxAgeMs: 86_400_000, maxRows: 1_000, maxBytes: 1024 * 1024 };

async function exported(record: DeliveryRecord, format: 'csv' | 'jsonl'): Promise<string> {
  const chunks: string[] = [];
  for await (const chunk of exportChunks(record, { sinceMs: 0, untilMs: Number.MAX_SAFE_INTEGER }, format))
    chunks.push(chunk);
  return chunks.join('');
}

describe('the export', () => {
  let t: TestRedis;
  let record: DeliveryRecord;

  beforeEach(async () => {
    t = await createTestRedis('export');
    record = new DeliveryRecord(t.redis, t.prefix);
  });
  afterEach(async () => t.cleanup());

  it('CSV: quoted per RFC 4180, CRLF records, and no name runs as a spreadsheet formula', async () => {
    const issuer = { id: 'I1', name: 'Acme, "the" plc' };
    const events = [
      makeEvent({ id: 'e1', issuer, holder: '=HYPERLINK("http://evil.example","x")' }),
      makeEvent({ id: 'e2', issuer, holder: 'Line\nbreak' }),
    ];
    await record.append(attemptRow(slack, { type: 'events', issuer, events }, 'd-1'), KEEP);
    const text = await exported(record, 'csv');
    expect(text.startsWith(`${EXPORT_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain(',"Acme, ""the"" plc",');
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.example"",""x""); Line\nbreak",`);
  });

  it('CSV of nothing is its header; JSON Lines keep the values exactly', async () => {
    expect(await exported(record, 'csv')).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`);
    expect(await exported(record, 'jsonl')).toBe('');
    const issuer = { id: 'I1', name: '=Acme' };
    const events = [makeEvent({ id: 'e1', issuer })];
    await record.append(attemptRow(slack, { type: 'events', issuer, events }, 'd-1'), KEEP);
    const [line] = (await exported(record, 'jsonl')).split('\n');
    expect(JSON.parse(line ?? '')).toMatchObject({ deliveryId: 'd-1', issuers: [issuer], answer: 'ok' });
  });
});
