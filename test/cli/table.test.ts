import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/cli/table.js';

describe('renderTable', () => {
  it.each([
    {
      name: 'strings align left, numbers right, under a dashed rule',
      headers: ['ISSUER', 'HOLDERS'],
      rows: [
        ['ISS-1', 3],
        ['Borealis Mining plc', 12],
      ],
      expected: [
        'ISSUER               HOLDERS',
        '-------------------  -------',
        'ISS-1                      3',
        'Borealis Mining plc       12',
      ],
    },
    {
      name: 'a header wider than every cell sets the width',
      headers: ['CHANNEL', 'FAILED'],
      rows: [['a', 0]],
      expected: ['CHANNEL  FAILED', '-------  ------', 'a             0'],
    },
    {
      name: 'no rows: the header and its rule only',
      headers: ['A', 'BB'],
      rows: [],
      expected: ['A  BB', '-  --'],
    },
    {
      name: 'a column mixing numbers and text aligns left',
      headers: ['X', 'V'],
      rows: [
        ['a', 1],
        ['b', '1.25%'],
      ],
      expected: ['X  V', '-  -----', 'a  1', 'b  1.25%'],
    },
    {
      name: 'trailing spaces are trimmed from each line',
      headers: ['NAME', 'NOTE'],
      rows: [['long name', '']],
      expected: ['NAME       NOTE', '---------  ----', 'long name'],
    },
  ])('$name', ({ headers, rows, expected }) => {
    expect(renderTable(headers, rows).split('\n')).toEqual(expected);
  });

  it('shows a name with a line break, an escape and a bidi override on its own row only', () => {
    const lines = renderTable(
      ['HOLDER', 'VALUE'],
      [
        ['Evil\nFake Capital  1.0%', '0.6%'],
        ['Red\u001b[2J \u202Ednuf', '0.7%'],
      ],
    ).split('\n');
    expect(lines).toEqual([
      'HOLDER                  VALUE',
      '----------------------  -----',
      'Evil Fake Capital 1.0%  0.6%',
      'Red[2J dnuf             0.7%',
    ]);
  });

  it('keeps columns aligned however long the cells', () => {
    const lines = renderTable(
      ['K', 'N'],
      [
        ['x', 1],
        ['yyyyyy', 123456],
      ],
    ).split('\n');
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });
});
