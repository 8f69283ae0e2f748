import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deliverQueueName,
  deliveryJobId,
  digestBatchId,
  noticeJobId,
  pollJobId,
  SCHEDULER,
  shortHash,
} from '../../src/jobs/queues.js';

/** What BullMQ accepts as a custom job id (no ':' at all here, and never all digits). */
function usableId(id: string): boolean {
  return id.length > 0 && !id.includes(':') && !/^\d+$/.test(id);
}

const idBuilders: Array<[string, (text: string, other: string) => string]> = [
  ['pollJobId', (a, b) => pollJobId(a, b.replace(/[^a-z0-9]/gi, '') || 'v1')],
  ['deliveryJobId', (a, b) => deliveryJobId(a, [b, `${b}x`])],
  ['noticeJobId', (a, b) => noticeJobId(a, b, 'raise-2026-01-05T10:00:00.000Z')],
  ['digestBatchId', (a) => digestBatchId(a, 1_767_600_000_000)],
];

describe('job ids', () => {
  it.each(idBuilders)('%s never holds ":" and is never all digits, whatever the input', (_, build) => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(usableId(build(a, b))).toBe(true);
      }),
    );
  });

  it.each([
    ['an issuer id made of digits', pollJobId('123456', 'v1767600000000')],
    ['an issuer id with colons', pollJobId('GB:ISS:1', 'v1')],
    ['a channel called 12345', deliveryJobId('12345', ['1', '2'])],
    ['a notice key with colons', noticeJobId('ops', 'issuer-missing-a:b', 'raise-2026-01-05T10:00:00.000Z')],
  ])('%s gives a usable id', (_, id) => {
    expect(usableId(id)).toBe(true);
  });

  it.each(idBuilders)('%s is deterministic', (_, build) => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(build(a, b)).toBe(build(a, b));
      }),
    );
  });

  it('a delivery id ignores the order of its events but not their set or the channel', () => {
    const id = deliveryJobId('desk', ['e1', 'e2', 'e3']);
    expect(deliveryJobId('desk', ['e3', 'e1', 'e2'])).toBe(id);
    expect(deliveryJobId('desk', ['e1', 'e2'])).not.toBe(id);
    expect(deliveryJobId('alerts', ['e1', 'e2', 'e3'])).not.toBe(id);
  });

  it('a poll id changes with the issuer and with the dataset version', () => {
    const id = pollJobId('ISS-0001', 'v1767600000000');
    expect(pollJobId('ISS-0001', 'v1767600000000')).toBe(id);
    expect(pollJobId('ISS-0002', 'v1767600000000')).not.toBe(id);
    expect(pollJobId('ISS-0001', 'v1767600060000')).not.toBe(id);
    expect(pollJobId('ISS-0001', 'stale-v1767600000000')).not.toBe(id);
  });

  it('notice ids differ per occurrence and digest ids per period', () => {
    expect(noticeJobId('ops', 'access-revoked', 'raise-a')).not.toBe(
      noticeJobId('ops', 'access-revoked', 'clear-a'),
    );
    expect(noticeJobId('ops', 'k', 'o')).not.toBe(noticeJobId('ops2', 'k', 'o'));
    expect(digestBatchId('morning', 1)).not.toBe(digestBatchId('morning', 2));
    expect(digestBatchId('morning', 1)).not.toBe(digestBatchId('evening', 1));
  });
});

describe('names and hashes', () => {
  it.each([
    ['desk', 'deliver-desk'],
    ['alerts_eu-1', 'deliver-alerts_eu-1'],
  ])('deliverQueueName(%j) = %j', (channel, name) => {
    expect(deliverQueueName(channel)).toBe(name);
  });

  it('shortHash is hex of the asked length and stable', () => {
    expect(shortHash('ISS-0001')).toMatch(/^[0-9a-f]{16}$/);
    expect(shortHash('ISS-0001', 8)).toMatch(/^[0-9a-f]{8}$/);
    expect(shortHash('ISS-0001')).toBe(shortHash('ISS-0001'));
    expect(shortHash('ISS-0001')).not.toBe(shortHash('ISS-0002'));
  });

  it('scheduler ids are one per purpose', () => {
    expect([SCHEDULER.sweep, SCHEDULER.heartbeat, SCHEDULER.digest('morning')]).toEqual([
      'sweep',
      'heartbeat',
      'digest-morning',
    ]);
  });
});
