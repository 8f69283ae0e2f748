/**
 * Cells a spreadsheet part makes SheetJS build and walk, counted on its XML before SheetJS reads it:
 * per sheet the rows times the columns its cells span (SheetJS walks that range cell by cell), with
 * repeated rows and columns counted as the rows and columns they become.
 */

// Any namespace prefix: SheetJS matches these tags by their local name.
const ODS_TAG = /<(\/?)(?:[\w.-]+:)?(table-row|table-cell|covered-table-cell|table)(?=[\s/>])([^>]*)>/g;
// The tag and its `r` reference, when it has one, in one match (a second pattern per tag costs as much
// as SheetJS's own parse of a sheet).
const XLSX_TAG = /<(?:[\w.-]+:)?(row|c)(?=[\s/>])(?:[^>]*?\sr\s*=\s*["']([^"']*)["'])?[^>]*>/g;

/** What one ODS table spans while it is walked. */
interface OdsWalk {
  row: number;
  rowRepeat: number;
  column: number;
  rows: number;
  columns: number;
  /** Self-closing text cells: SheetJS keeps each, outside the range. */
  loose: number;
}

/**
 * Cells of an ODS `content.xml`. A cell with content is built once per row and column it repeats over
 * (an 850-byte file can repeat one row into 10 M cells); an empty self-closing cell (Sweden pads each row
 * with one repeated 16,384 times, and 700,000 rows after the data) only moves the column on, as in SheetJS.
 */
export function odsCells(xml: string): number {
  let total = 0;
  let walk = newWalk();
  for (const [, closing, tag, attributes = ''] of xml.matchAll(ODS_TAG)) {
    const selfClosing = attributes.endsWith('/');
    if (tag === 'table') {
      total += area(walk);
      walk = newWalk();
    } else if (tag === 'table-row') {
      if (closing !== '') walk.row += walk.rowRepeat;
      else if (selfClosing) walk.row += rowRepeat(attributes);
      else {
        walk.rowRepeat = rowRepeat(attributes);
        walk.column = 0;
      }
    } else if (closing === '') {
      cell(walk, tag === 'table-cell' && !selfClosing, attributes);
    }
  }
  return total + area(walk);
}

function newWalk(): OdsWalk {
  return { row: 0, rowRepeat: 1, column: 0, rows: 0, columns: 0, loose: 0 };
}

function cell(walk: OdsWalk, withContent: boolean, attributes: string): void {
  const repeat = columnRepeat(attributes);
  if (withContent) {
    walk.rows = Math.max(walk.rows, walk.row + walk.rowRepeat);
    walk.columns = Math.max(walk.columns, walk.column + repeat);
  } else if (/value-type\s*=\s*["']string["']/.test(attributes)) {
    walk.loose += 1;
  }
  walk.column += repeat;
}

function area(walk: OdsWalk): number {
  return walk.rows * walk.columns + walk.loose;
}

// SheetJS reads rows with `+value` and columns with `parseInt`: the same here, so `1e9` counts alike.
function rowRepeat(attributes: string): number {
  const value = Number(attribute(attributes, 'number-rows-repeated'));
  return Number.isFinite(value) && value >= 1 ? value : 1;
}

function columnRepeat(attributes: string): number {
  const value = Number.parseInt(attribute(attributes, 'number-columns-repeated') ?? '1', 10);
  return Number.isFinite(value) && value >= 1 ? value : 1;
}

const ATTRIBUTES = new Map<string, RegExp>();

function attribute(attributes: string, name: string): string | undefined {
  let pattern = ATTRIBUTES.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*["']([^"']*)["']`);
    ATTRIBUTES.set(name, pattern);
  }
  return pattern.exec(attributes)?.[1];
}

/**
 * Cells of an XLSX worksheet part: the rows times the columns its cells reach (by their `r` references,
 * or their place in the row where they have none). SheetJS is asked not to trust the declared
 * `<dimension>` (`nodim`), so the range it walks is this one.
 */
export function xlsxCells(xml: string): number {
  let row = 0;
  let column = 0;
  let rows = 0;
  let columns = 0;
  for (const [, tag, reference] of xml.matchAll(XLSX_TAG)) {
    if (tag === 'row') {
      row = reference === undefined ? row + 1 : Number.parseInt(reference, 10) || row + 1;
      column = 0;
      rows = Math.max(rows, row);
      continue;
    }
    const cell = reference === undefined ? undefined : /^([A-Za-z]{1,3})(\d+)$/.exec(reference);
    column = cell?.[1] === undefined ? column + 1 : columnNumber(cell[1]);
    rows = Math.max(rows, cell?.[2] === undefined ? row : Number(cell[2]));
    columns = Math.max(columns, column);
  }
  return rows * columns;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (const letter of letters.toUpperCase()) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n;
}
