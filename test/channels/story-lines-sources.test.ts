import { describe, expect, it } from 'vitest';
import { storyLines, storySentence } from '../../src/channels/event-story.js';
import { makeEvent } from '../routing/events.js';

// One holder of one issuer in two registers (a current file and its history): each register's value
// is its own line, never one register's value followed by the other's as a sequence.
const raised = makeEvent({
  id: 'cur',
  source: 'fsma',
  previous: { value: 0.6, date: '2025-08-07' },
  current: { value: 0.72, date: '2025-08-12' },
  // Seen the day it was published: the lines here are about sources, not about when they were seen.
  detectedAt: '2025-08-12T18:00:00.000Z',
});
const history = makeEvent({
  id: 'hist',
  source: 'fsmahist',
  previous: { value: 0.51, date: '2025-07-29' },
  current: { value: 0.6, date: '2025-08-07' },
  detectedAt: '2025-08-12T18:00:01.000Z',
});

describe('storyLines across sources', () => {
  it.each([
    {
      name: 'two sources: a line each',
      events: [raised, history],
      lines: [
        'MARSHALL WACE LLP raised 0.60% → 0.72% (+0.12 pp) on 2025-08-12',
        // The history's change was first seen with the current file, five days after its date.
        'MARSHALL WACE LLP raised 0.51% → 0.60% (+0.09 pp) · disclosed for 2025-08-07, first seen 12 Aug 2025 18:00 UTC',
      ],
    },
    {
      name: 'one source: one line with the sequence',
      events: [raised, { ...history, source: 'fsma' }],
      lines: ['MARSHALL WACE LLP 2 changes: 0.60% → 0.72% → 0.60% (±0.00 pp) on 2025-08-07'],
    },
  ])('$name', ({ events, lines }) => {
    expect(storyLines(events).map(storySentence)).toEqual(lines);
  });
});
