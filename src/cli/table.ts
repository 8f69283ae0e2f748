import { displayText } from '../channels/format.js';

/**
 * Renders rows as an aligned plain-text table with a header line; numbers align right. Cells hold
 * outside text (holder and issuer names): each is shown through displayText, so a line break cannot
 * add a row, nor a bidi override reverse the columns after it.
 */
export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const cells = rows.map((row) => row.map((cell) => displayText(String(cell))));
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((row) => (row[i] ?? '').length)),
  );
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number'));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
