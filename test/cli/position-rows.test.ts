import { describe, expect, it } from 'vitest';
import { formatPercent } from '../../src/channels/format.js';
import { activeTable, historyTable } from '../../src/cli/position-rows.js';
import { diffPositions } from '../../src/positions/index.js';
import type { IssuerPosition } from '../../src/upstream/schemas.js';

const row = (position_holder: string, value: number, date: string): IssuerPosition => ({
  position_holder,
  value,
  date,
});

// Two spellings of one fund, as the register files them: one holder to the alerts.
const ACTIVE = [
  row('D. E. Shaw & Co., L.P.', 0.6, '2025-12-01'),
  row('Marshall Wace LLP', 1, '2025-12-05'),
  row('D.E. SHAW & CO LP', 1.6, '2025-12-10'),
];

describe('positions: the rows of `shortwatch positions`', () => {
  it('counts two spellings of one holder once, showing its latest disclosure, with the alerts’ decimals', () => {
    expect(activeTable(ACTIVE)).toEqual({
      rows: [
        ['D.E. SHAW & CO LP', '1.60%', '2025-12-10'],
        ['Marshall Wace LLP', '1.00%', '2025-12-05'],
      ],
      summary: '2 holders, total disclosed short 2.60%',
    });
  });

  it('gives the same total the alerts carry as the issuer total', () => {
    const { events } = diffPositions({
      previous: null,
      issuer: { id: 'ISS-1', name: 'Acme plc' },
      rows: ACTIVE,
      lastUpdated: null,
      now: new Date('2026-01-05T08:00:00Z'),
      thresholds: [],
      onFirstSeen: 'alert',
    });
    const total = events[0]?.issuerTotal.after ?? Number.NaN;
    expect(activeTable(ACTIVE).summary).toBe(`2 holders, total disclosed short ${formatPercent(total)}`);
  });

  it('sorts equal values by holder name, and says "1 holder" for one', () => {
    expect(activeTable([row('B Fund', 0.5, '2025-12-01'), row('A Fund', 0.5, '2025-12-02')]).rows).toEqual([
      ['A Fund', '0.50%', '2025-12-02'],
      ['B Fund', '0.50%', '2025-12-01'],
    ]);
    expect(activeTable([row('A Fund', 0.495, '2025-12-02')])).toEqual({
      rows: [['A Fund', '0.495%', '2025-12-02']],
      summary: '1 holder, total disclosed short 0.495%',
    });
  });

  it('lists every disclosure of the history, newest first, and counts holders by identity', () => {
    expect(historyTable(ACTIVE)).toEqual({
      rows: [
        ['D.E. SHAW & CO LP', '1.60%', '2025-12-10'],
        ['Marshall Wace LLP', '1.00%', '2025-12-05'],
        ['D. E. Shaw & Co., L.P.', '0.60%', '2025-12-01'],
      ],
      summary: '3 disclosures by 2 holders',
    });
  });
});
