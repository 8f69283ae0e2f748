import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../src/channels/email/render.js';
import { storyLines, storySentence } from '../../src/channels/event-story.js';
import { renderSlack } from '../../src/channels/slack/render.js';
import { LATE_FILING_DAYS, lateFiling } from '../../src/positions/late-filing.js';
import { seenLateByDays } from '../../src/positions/seen-late.js';
import { makeEvent } from '../routing/events.js';

// A register that says when a position was filed (Austria's reporting date, the AMF's start of
// publication): a change filed late says so with both dates; one filed in time reads as any other.
function filed(date: string, reportedOn: string, detectedAt = `${reportedOn}T18:00:00.000Z`) {
  return makeEvent({
    id: `late-${reportedOn}`,
    source: 'fma',
    previous: { value: 0.6, date: '2025-12-01' },
    current: { value: 0.72, date, reportedOn },
    detectedAt,
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

  it('are told with when shortwatch first saw them, when that is more than a day after the report', () => {
    expect(
      storyLines([filed('2026-01-05', '2026-03-02', '2026-03-09T08:30:00.000Z')]).map(storySentence),
    ).toEqual([
      'MARSHALL WACE LLP raised, filed late (position of 2026-01-05 reported 2026-03-02, 56 days later): 0.60% → 0.72% (+0.12 pp) · disclosed for 2026-01-05, first seen 9 Mar 2026 08:30 UTC',
    ]);
  });
});

// Issue 34: what shortwatch knew when. A change first seen more than a day after the date it is
// disclosed for (a register published late, a source that was down) says both.
describe('first seen late', () => {
  function seen(date: string, detectedAt: string) {
    return makeEvent({
      previous: { value: 0.6, date: '2025-12-01' },
      current: { value: 0.72, date },
      detectedAt,
    });
  }

  it('is more than one whole day after the start of the disclosure date', () => {
    expect(seenLateByDays('2026-01-09', '2026-01-10T23:59:59.000Z')).toBeUndefined();
    expect(seenLateByDays('2026-01-09', '2026-01-11T00:00:00.000Z')).toBe(2);
    // A simulated calendar ahead of the clock (the demo's sandbox): never late.
    expect(seenLateByDays('2026-12-07', '2026-11-28T22:00:00.000Z')).toBeUndefined();
    expect(seenLateByDays('not a date', '2026-11-28T22:00:00.000Z')).toBeUndefined();
  });

  it('says "disclosed for D, first seen T" in every line, and nothing when seen in time', () => {
    expect(storyLines([seen('2026-01-09', '2026-01-12T07:05:00.000Z')]).map(storySentence)).toEqual([
      'MARSHALL WACE LLP raised 0.60% → 0.72% (+0.12 pp) · disclosed for 2026-01-09, first seen 12 Jan 2026 07:05 UTC',
    ]);
    expect(storyLines([seen('2026-01-09', '2026-01-10T07:05:00.000Z')]).map(storySentence)).toEqual([
      'MARSHALL WACE LLP raised 0.60% → 0.72% (+0.12 pp) on 2026-01-09',
    ]);
  });

  it('is said by Slack and by e-mail (text and the HTML date cell), from the one story line', () => {
    const issuer = { id: 'ISS-0001', name: 'Acme plc' };
    const events = [{ ...seen('2026-01-09', '2026-01-12T07:05:00.000Z'), issuer }];
    const both = 'disclosed for 2026-01-09, first seen 12 Jan 2026 07:05 UTC';
    expect(JSON.stringify(renderSlack({ type: 'events', issuer, events }))).toContain(both);
    const email = renderEmail({ type: 'events', issuer, events }, { timezone: 'Europe/London' });
    expect(email.text).toContain(`(+0.12 pp) · ${both}`);
    expect(email.html).toContain('2026-01-09, first seen 12 Jan 2026 07:05 UTC');
  });
});
