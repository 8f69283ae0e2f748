import { describe, expect, it } from 'vitest';
import { nextPollTry } from '../../src/jobs/poll-failure.js';

describe('nextPollTry: the next try a failed poll logs', () => {
  const base = { attempts: 3, jobBackoffMs: 5_000, healthRetryAt: 900_000, nowMs: 100_000 };
  it.each([
    ['a blip on the first attempt: the job retries after its backoff', true, 0, 105_000],
    ['a blip on the second attempt: the backoff doubled', true, 1, 110_000],
    ['a blip on the last attempt: the sweep, after the health backoff', true, 2, 900_000],
    ['not a blip (deterministic, or failing before): the health backoff', false, 0, 900_000],
  ] as const)('%s', (_, blip, attemptsMade, expected) => {
    expect(nextPollTry({ ...base, blip, attemptsMade })).toBe(expected);
  });

  it('says nothing when Redis could not record the failure and the job ends', () => {
    expect(nextPollTry({ ...base, healthRetryAt: undefined, blip: false, attemptsMade: 0 })).toBeUndefined();
  });
});
