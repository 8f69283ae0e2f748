import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pollJobId, SCHEDULER } from '../../src/jobs/queues.js';
import {
  digestBatchId,
  eventsDeliveryId,
  heartbeatDeliveryId,
  noticeDeliveryId,
  shortHash,
} from '../../src/state/delivery-ids.js';

/** What BullMQ accepts as a custom job id and a Message-ID local part takes as is: no ':', never all digits. */
function usableId(id: string): boolean {
  return id.length > 0 && !id.includes(':') && !/^\d+$/.test(id) && /^[A-Za-z0-9.-]+$/.test(id);
}

const idBuilders: Array<[string, (text: string, other: string) => string]> = [
  ['pollJobId', (a, b) => pollJobId(a, b.replace(/[^a-z0-9]/gi, '') || 'v1')],
  ['eventsDeliveryId', (a, b) => eventsDeliveryId(a, [b, `${b}x`])],
  ['noticeDeliveryId', (a, b) => noticeDeliveryId(a, b, 'raise-2026-01-05T10:00:00.000Z')],
  ['digestBatchId', (a) => digestBatchId(a, 1_767_600_000_000)],
  ['heartbeatDeliveryId', (a) => heartbeatDeliveryId(a, '2026-01-05T10:00:00.000Z')],
];

describe('job and delivery ids', () => {
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
    ['a channel called 12345', eventsDeliveryId('12345', ['1', '2'])],
    [
      'a notice key with colons',
      noticeDeliveryId('ops', 'issuer-missing-a:b', 'raise-2026-01-05T10:00:00.000Z'),
    ],
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

  it('a delivery id is the channel and the set of event ids in the message: stable across attempts and replays', () => {
    const id = eventsDeliveryId('desk', ['e1', 'e2', 'e3']);
    expect(eventsDeliveryId('desk', ['e3', 'e1', 'e2'])).toBe(id);
    expect(eventsDeliveryId('desk', ['e1', 'e2'])).not.toBe(id);
    expect(eventsDeliveryId('alerts', ['e1', 'e2', 'e3'])).not.toBe(id);
  });

  it('a poll id changes with the issuer and with the dataset version', () => {
    const id = pollJobId('ISS-0001', 'v1767600000000');
    expect(pollJobId('ISS-0001', 'v1767600000000')).toBe(id);
    expect(pollJobId('ISS-0002', 'v1767600000000')).not.toBe(id);
    expect(pollJobId('ISS-0001', 'v1767600060000')).not.toBe(id);
    expect(pollJobId('ISS-0001', 'stale-v1767600000000')).not.toBe(id);
  });

  it('notice ids differ per occurrence and digest ids per period', () => {
    expect(noticeDeliveryId('ops', 'access-revoked', 'raise-a')).not.toBe(
      noticeDeliveryId('ops', 'access-revoked', 'clear-a'),
    );
    expect(noticeDeliveryId('ops', 'k', 'o')).not.toBe(noticeDeliveryId('ops2', 'k', 'o'));
    expect(digestBatchId('morning', 1)).not.toBe(digestBatchId('morning', 2));
    expect(digestBatchId('morning', 1)).not.toBe(digestBatchId('evening', 1));
  });
});

describe('names and hashes', () => {
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
