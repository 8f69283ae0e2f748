import { describe, expect, it } from 'vitest';
import { httpRefusal } from '../../src/channels/http-refusal.js';

describe('httpRefusal: one mapping of a refused request for every HTTP channel', () => {
  it.each([
    {
      name: '429 with Retry-After pauses for it',
      status: 429,
      retryAfterMs: 5_000,
      outcome: 'rate-limit',
      pause: 5_000,
    },
    {
      name: '429 without Retry-After pauses a second',
      status: 429,
      retryAfterMs: undefined,
      outcome: 'rate-limit',
      pause: 1_000,
    },
    {
      name: '408 retries (a Slack webhook parked it before the one mapping)',
      status: 408,
      retryAfterMs: undefined,
      outcome: 'retry',
      pause: undefined,
    },
    { name: '500 retries', status: 500, retryAfterMs: undefined, outcome: 'retry', pause: undefined },
    { name: '503 retries', status: 503, retryAfterMs: 2_000, outcome: 'retry', pause: undefined },
    { name: '400 parks', status: 400, retryAfterMs: undefined, outcome: 'park', pause: undefined },
    { name: '404 parks', status: 404, retryAfterMs: undefined, outcome: 'park', pause: undefined },
  ])('$name', ({ status, retryAfterMs, outcome, pause }) => {
    const error = httpRefusal(`answered ${status}`, { status, code: 'x', retryAfterMs });
    expect(error.outcome).toBe(outcome);
    expect(error.status).toBe(status);
    expect(error.code).toBe('x');
    expect(error.retryAfterMs).toBe(pause);
    expect(error.message).toBe(`answered ${status}`);
  });
});
