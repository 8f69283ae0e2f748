import { describe, expect, it } from 'vitest';
import { readChanges } from './story-lines.js';

describe('reading changes back from rendered lines (test support)', () => {
  it.each([
    [':new: *Alpha Capital LLP* opened *0.62%* (+0.62 pp) · crossed 0.5%', [['opened', null, 0.62]]],
    [
      ':arrow_up: *Beta* raised 0.95% → *2.10%* (+1.15 pp) · 2024-05-02 · crossed 1%, 2%',
      [['increased', 0.95, 2.1]],
    ],
    [
      ':arrow_down: *D* fell below the 0.5% disclosure threshold (0.47%), no longer public · 0.56% → *0.47%* (-0.09 pp)',
      [['decreased', 0.56, 0.47]],
    ],
    [
      ':white_circle: *D* fell below the 0.5% disclosure threshold (0.45%), no longer public · 0.55% → off the list at 0.45% (-0.10 pp)',
      [['closed', 0.55, null]],
    ],
    ['* Gamma Fund cut 1.30% → 1.25% (-0.05 pp) on 2024-05-02', [['decreased', 1.3, 1.25]]],
    ['* D back above 0.5% after 12 days: 0.52% (+0.52 pp) on 2024-05-14', [['opened', null, 0.52]]],
    [
      ':left_right_arrow: *F* crossed 0.5% 3 times · 0.52% → 0.47% → 0.51% → off the list at 0.48% (-0.04 pp) · crossed 0.5%',
      [
        ['decreased', 0.52, 0.47],
        ['increased', 0.47, 0.51],
        ['closed', 0.51, null],
      ],
    ],
    [
      '* F 2 changes: not listed → 0.62% → 0.71% (+0.71 pp) on 2024-05-03',
      [
        ['opened', null, 0.62],
        ['increased', 0.62, 0.71],
      ],
    ],
  ])('%s', (line, expected) => {
    expect(readChanges(line)?.map((c) => [c.kind, c.from, c.to])).toEqual(expected);
  });

  it('a line with no values reads as none', () => {
    expect(readChanges('*Period:* 1 May 2024 07:30 → 2 May 2024 07:30')).toBeUndefined();
  });
});
