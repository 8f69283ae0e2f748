import { describe, expect, it } from 'vitest';
import { storyLines, storySentence } from '../../src/channels/event-story.js';
import { LATE_FILING_DAYS, lateFiling } from '../../src/positions/late-filing.js';
import { makeEvent } from '../routing/events.js';

// A register that says when a position was filed (Austria's reporting date, the AMF's start of
// publication): a change filed late says so with both dates; one filed in time reads as any other.
function filed(date: string, reportedOn: string) {
  return makeEvent({
    id: `late-${reportedOn}`,
    source: 'fma',
    previous: { value: 0.6, date: '2025-12-01' },
    current: { value: 0.72, date, reportedOn },
  });
}

describe('late filings', () => {
  it('are late from the fifth day after the position date (next trading day, a weekend and a holiday)', () => {
    expect(LATE_FILING_DAYS).toBe(4);
    expect(lateFiling({ value: 1, date: '2026-01-02', reportedOn: '2026-01-06' })).toBeUndefined();
    expect(lateFiling({ value: 1, date: '2026-01-02', reportedOn: '2026-01-07' })).toEqual({
      date: '2026-01-02',
      reportedOn: '2026-01-07',
      days: 5,
    });
    expect(lateFiling({ value: 1, date: '2026-01-02' })).toBeUndefined();
    expect(lateFiling(null)).toBeUndefined();
  });

  it('are told with the position date and the reporting date; a timely filing is not', () => {
    expect(storyLines([filed('2026-01-05', '2026-03-02')]).map(storySentence)).toEqual([
      'MARSHALL WACE LLP raised, filed late (position of 2026-01-05 reported 2026-03-02, 56 days later): 0.60% → 0.72% (+0.12 pp) on 2026-01-05',
    ]);
    expect(storyLines([filed('2026-01-05', '2026-01-06')]).map(storySentence)).toEqual([
      'MARSHALL WACE LLP raised 0.60% → 0.72% (+0.12 pp) on 2026-01-05',
    ]);
  });
});
