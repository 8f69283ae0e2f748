import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/channels/delivery-error.js';
import { channelSchema } from '../../src/config/schema.js';
import { recordedMessages } from '../../src/console/data/record-messages.js';
import { renderRecord } from '../../src/console/pages/record-section.js';
import { attemptRow } from '../../src/delivery/attempt-row.js';
import { lookupHolder } from '../../src/lookup/holder-lookup.js';
import { exportRow } from '../../src/record/export.js';
import { type RecordQuery, recordMatches } from '../../src/record/search.js';
import { parseInstant } from '../../src/record/time-range.js';
import type { RecordedAttempt } from '../../src/state/delivery-record.js';
import { DELIVERY_IDS_LOGGED } from '../../src/state/retention.js';
import { makeEvent } from '../routing/events.js';

const email = channelSchema.parse({
  name: 'alerts',
  kind: 'email',
  host: 'smtp.example.com',
  from: 'shortwatch@example.com',
  to: ['desk@example.com'],
});
const slack = channelSchema.parse({ name: 'desk', kind: 'slack', webhookUrl: 'https://hooks.example.com/x' });
const issuer = { id: 'GB00B3MBS747', name: 'Ocado Group plc' };
const twoEvents = {
  type: 'events' as const,
  issuer,
  events: [
    makeEvent({ id: 'e1', issuer, holder: 'D. E. Shaw & Co., L.P.', kind: 'opened' }),
    makeEvent({ id: 'e2', issuer, holder: 'Marshall Wace LLP', kind: 'increased' }),
  ],
};

function recorded(n: number, overrides: Partial<RecordedAttempt> = {}): RecordedAttempt {
  return { ...attemptRow(email, twoEvents, 'd-1'), id: `${1_000 + n}-0`, at: 1_000 + n, ...overrides };
}

describe('attemptRow: what a send attempt carried and what the receiver said', () => {
  it.each([
    {
      name: 'an e-mail taken',
      channel: email,
      error: undefined,
      want: { answer: 'ok', messageId: '<d-1@example.com>' },
    },
    {
      name: 'a Slack 500',
      channel: slack,
      error: new DeliveryError('Slack answered 500 rollup_error', {
        outcome: 'retry',
        status: 500,
        code: 'rollup_error',
      }),
      want: { answer: 'error', action: 'retry', status: 500, cause: 'rollup_error' },
    },
    {
      name: 'an SMTP 550',
      channel: email,
      error: new DeliveryError('550 5.1.1 Mailbox unavailable', {
        outcome: 'park',
        status: 550,
        code: 'EENVELOPE',
      }),
      want: { answer: 'error', action: 'park', status: 550, cause: 'EENVELOPE' },
    },
    {
      name: 'an error no channel classified (the deliverer retries it)',
      channel: slack,
      error: new TypeError('socket hang up'),
      want: { answer: 'error', action: 'retry', cause: 'TypeError', error: 'socket hang up' },
    },
  ])('$name', ({ channel, error, want }) => {
    const row = attemptRow(channel, twoEvents, 'd-1', error);
    expect(row).toMatchObject({
      channel: channel.name,
      deliveryId: 'd-1',
      issuers: [issuer],
      holders: ['D. E. Shaw & Co., L.P.', 'Marshall Wace LLP'],
      kinds: ['opened', 'increased'],
      events: 2,
      ...want,
    });
    if (channel.kind !== 'email') expect(row.messageId).toBeUndefined();
  });

  it(`lists the first ${DELIVERY_IDS_LOGGED} event ids a message carried and counts them all`, () => {
    const events = Array.from({ length: 2_000 }, (_, n) =>
      makeEvent({ id: `e${String(n).padStart(32, '0')}`, issuer, holder: 'Marshall Wace LLP' }),
    );
    const row = attemptRow(slack, { type: 'events', issuer, events }, 'd-big');
    expect(row.events).toBe(2_000);
    expect(row.eventIds).toEqual(events.slice(0, DELIVERY_IDS_LOGGED).map((e) => e.id));
    expect(Buffer.byteLength(JSON.stringify(row))).toBeLessThan(2_500);
  });
});

describe('recordMatches: the console search and the export filters', () => {
  const row = recorded(0);
  const range = { sinceMs: 0, untilMs: 10_000 };
  it.each<[string, Partial<RecordQuery>, boolean]>([
    ['no filter', {}, true],
    ['a word of a holder', { holder: 'shaw' }, true],
    ['another spelling of the fund', { holder: 'D.E. SHAW & CO LP' }, true],
    ['a fragment of a word', { holder: 'haw' }, false],
    ['the issuer id, any case', { issuer: 'gb00b3mbs747' }, true],
    ['a word of the issuer name', { issuer: 'ocado' }, true],
    ['another issuer', { issuer: 'tesco' }, false],
    ['its channel', { channel: 'alerts' }, true],
    ['another channel', { channel: 'desk' }, false],
  ])('%s', (_, filters, want) => {
    expect(recordMatches(row, { ...range, ...filters })).toBe(want);
  });
});

describe('the record as the console shows it', () => {
  it('a two-event message that took three attempts reads Events 2, Attempts 3 (not 0 and 1)', () => {
    const failed = { answer: 'error' as const, action: 'retry' as const, status: 500, cause: 'rollup_error' };
    const rows = [recorded(2), recorded(1, failed), recorded(0, failed), recorded(5, { deliveryId: 'd-2' })];
    const messages = recordedMessages(rows);
    expect(messages.map((m) => [m.deliveryId, m.attempts.length, m.acceptedAt])).toEqual([
      ['d-2', 1, 1_005],
      ['d-1', 3, 1_002],
    ]);
    const page = renderRecord({
      search: {
        fields: { issuer: '', holder: '', channel: '', from: '', to: '' },
        query: { sinceMs: 0, untilMs: 2_000 },
      },
      messages,
      cut: false,
      channels: ['alerts'],
    }).value;
    const d1 = /<tr data-delivery="d-1">[\s\S]*?<\/tr>/.exec(page)?.[0] ?? '';
    expect(d1).toContain('<td class="num">2</td>\n<td class="num">3</td>');
    expect(d1).toContain('&lt;d-1@example.com&gt;');
    expect(d1.match(/500 rollup_error/g)).toHaveLength(2);
  });
});

describe('the export row', () => {
  it('joins lists with "; " and leaves absent values empty', () => {
    expect(exportRow(recorded(0))).toMatchObject({
      at: '1970-01-01T00:00:01.000Z',
      issuer_ids: 'GB00B3MBS747',
      holders: 'D. E. Shaw & Co., L.P.; Marshall Wace LLP',
      kinds: 'opened; increased',
      events: 2,
      event_ids: 'e1; e2',
      status: '',
      cause: '',
    });
  });
});

describe('parseInstant', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');
  it.each<[string, boolean, string | undefined]>([
    ['2026-11-01', false, '2026-11-01T00:00:00.000Z'],
    ['2026-11-01', true, '2026-11-01T23:59:59.999Z'],
    ['2026-11-01T08:30:00Z', true, '2026-11-01T08:30:00.000Z'],
    ['7d', false, '2026-11-19T12:00:00.000Z'],
    ['2h', false, '2026-11-26T10:00:00.000Z'],
    ['yesterday', false, undefined],
    ['2026-13-45', false, undefined],
    ['', false, undefined],
  ])('"%s" (end of day: %s)', (text, endOfDay, want) => {
    const at = parseInstant(text, now, endOfDay);
    expect(at === undefined ? undefined : new Date(at).toISOString()).toBe(want);
  });
});

describe('lookupHolder: what `route --holder` reads a typed name as', () => {
  const known = ['D. E. Shaw & Co., L.P.', 'D.E. SHAW & CO LP', 'Marshall Wace LLP', 'Bradshaw Capital'];
  it.each([
    { typed: 'shaw', want: { kind: 'known', name: 'D.E. SHAW & CO LP' } },
    { typed: 'wace', want: { kind: 'known', name: 'Marshall Wace LLP' } },
    { typed: 'Citadel', want: { kind: 'unknown', name: 'Citadel' } },
    { typed: 'capital', want: { kind: 'known', name: 'Bradshaw Capital' } },
  ])('"$typed"', ({ typed, want }) => {
    expect(lookupHolder(typed, known)).toEqual(want);
  });

  it('two funds matching one word are ambiguous', () => {
    expect(lookupHolder('capital', ['Bradshaw Capital', 'Capital Fund Management'])).toEqual({
      kind: 'ambiguous',
      names: ['Bradshaw Capital', 'Capital Fund Management'],
    });
  });
});
