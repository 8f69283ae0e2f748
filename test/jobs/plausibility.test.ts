import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../src/jobs/plausibility.js';
import { failureCause, ImplausibleAnswerError, isDeterministic } from '../../src/jobs/poll-failure.js';
import type { Snapshot } from '../../src/positions/index.js';
import { SnapshotCorruptError } from '../../src/state/snapshot-corrupt-error.js';
import {
  InvalidRequestError,
  SchemaError,
  ServerError,
  UpstreamTimeoutError,
} from '../../src/upstream/errors.js';
import { positionsResponseSchema } from '../../src/upstream/schemas.js';

const T0 = '2026-03-02T09:00:00.000Z';
const T1 = '2026-03-02T10:00:00.000Z';

function answer(extra: Record<string, unknown> = {}) {
  return positionsResponseSchema.parse({
    issuer: { svc_issuer_id: 'ISS-1', name: 'Acme plc' },
    status: 'active',
    data: [
      { date: '2026-03-01', value: 0.6, position_holder: 'A Capital' },
      { date: '2026-03-01', value: 0.7, position_holder: 'B Capital' },
    ],
    last_updated: T1,
    ...extra,
  });
}

const snapshot = (upstreamUpdated: string | null | undefined): Snapshot => ({
  issuerId: 'ISS-1',
  issuerName: 'Acme plc',
  positions: {},
  lastUpdated: T0,
  ...(upstreamUpdated === undefined ? {} : { upstreamUpdated }),
  polledAt: T0,
});

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof ImplausibleAnswerError ? error.reason : `other: ${String(error)}`;
  }
}

describe('checkAnswer: a positions 200 is checked before it is diffed', () => {
  it('passes a plain answer and reports no unknown keys', () => {
    expect(checkAnswer(answer(), { issuerId: 'ISS-1' }, snapshot(T0))).toEqual([]);
  });

  it.each([
    {
      name: 'another issuer',
      body: { issuer: { svc_issuer_id: 'ISS-2', name: 'Other' } },
      reason: 'wrong-issuer',
    },
    { name: 'status all', body: { status: 'all' }, reason: 'status-echo' },
    { name: 'has_more: true', body: { has_more: true }, reason: 'partial' },
    { name: 'a next URL', body: { next: 'https://x.test/p2' }, reason: 'partial' },
    { name: 'a total above the rows', body: { total: 3 }, reason: 'partial' },
    { name: 'a cursor', body: { cursor: 'abc' }, reason: 'partial' },
  ])('rejects $name as $reason', ({ body, reason }) => {
    expect(reasonOf(() => checkAnswer(answer(body), { issuerId: 'ISS-1' }, snapshot(T0)))).toBe(reason);
  });

  it.each([
    {
      name: 'has_more: false, total = rows',
      body: { has_more: false, total: 2 },
      keys: ['has_more', 'total'],
    },
    { name: 'next: null', body: { next: null }, keys: ['next'] },
    { name: 'an unrelated key', body: { served_by: 'cache-3' }, keys: ['served_by'] },
  ])('accepts $name and reports its keys', ({ body, keys }) => {
    expect(checkAnswer(answer(body), { issuerId: 'ISS-1' }, snapshot(T0))).toEqual(keys);
  });

  it('rejects an answer older than the one the snapshot came from; null or unknown ages pass', () => {
    const later = '2026-03-02T11:00:00.000Z';
    expect(reasonOf(() => checkAnswer(answer(), { issuerId: 'ISS-1' }, snapshot(later)))).toBe('backwards');
    expect(checkAnswer(answer(), { issuerId: 'ISS-1' }, snapshot(T1))).toEqual([]);
    expect(checkAnswer(answer({ last_updated: null }), { issuerId: 'ISS-1' }, snapshot(later))).toEqual([]);
    expect(checkAnswer(answer(), { issuerId: 'ISS-1' }, snapshot(undefined))).toEqual([]);
    expect(checkAnswer(answer(), { issuerId: 'ISS-1' }, null)).toEqual([]);
  });
});

describe('poll failure causes', () => {
  const where = {
    operation: 'positions' as const,
    method: 'GET' as const,
    path: '/issuers/ISS-1/positions',
    issuerId: 'ISS-1',
  };
  it.each([
    {
      error: new InvalidRequestError('bad', { ...where, status: 400 }),
      cause: 'bad-request',
      deterministic: true,
    },
    {
      error: new SchemaError('value: expected number', { ...where, status: 200 }),
      cause: 'schema',
      deterministic: true,
    },
    { error: new ServerError('boom', { ...where, status: 503 }), cause: 'server', deterministic: false },
    { error: new UpstreamTimeoutError('slow', where, 1000), cause: 'timeout', deterministic: false },
    { error: new ImplausibleAnswerError('wrong-issuer', 'x'), cause: 'wrong-issuer', deterministic: true },
    { error: new SnapshotCorruptError('ISS-1', 'k'), cause: 'corrupt-snapshot', deterministic: true },
    { error: new Error('READONLY You cannot write'), cause: 'internal', deterministic: false },
  ])('$cause (retried within the sweep: $deterministic)', ({ error, cause, deterministic }) => {
    expect(failureCause(error)).toBe(cause);
    expect(isDeterministic(failureCause(error))).toBe(deterministic);
  });
});
