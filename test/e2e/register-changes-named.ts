import { registerBytes } from '../helpers/register-fixtures.js';
import {
  findRow,
  putRow,
  readWorkbook,
  removeRow,
  renameSheet,
  rowsWith,
  setValue,
  sheetOf,
  writeWorkbook,
} from './register-workbooks.js';

// The modified copies of the named-holder registers (src/sources/parsers/named-registers.ts) and the
// FCA's historic ANSP that the second register e2e file serves after each fixture. The spreadsheets
// are read whole and written back by SheetJS in their own format, every sheet and trap kept (SOURCES.md
// beside the fixtures): only the cells named here change.

/** Excel's serial of 13 Aug 2025 (the day after the fixtures' data: 45870 is 1 Aug 2025). */
const AUG_13 = 45882;

/** CONSOB's `PncPubbl.xlsx`: sheet names padded with spaces, Italian then English header, serial dates. */
export const CONSOB_FIXTURE = 'shared:italy/PncPubbl.xlsx';

/**
 * CONSOB published on 13/08/2025: D. E. Shaw raised Amplifon 0.59% → 0.75% (a date cell of 13 Aug) and
 * Citadel's Azimut position (Azimut's only one) gone. The 22,166 historic rows are written back too.
 */
export function consobChanged(): Buffer {
  const book = readWorkbook(registerBytes(CONSOB_FIXTURE));
  const current = sheetOf(book, /current$/i);
  // Columns: holder, holder LEI, issuer, issuer LEI, ISIN, %, date.
  const raised = findRow(current, 'D. E. Shaw & Co., L.P.', 'IT0004056880');
  setValue(current, raised, 5, 0.75);
  setValue(current, raised, 6, AUG_13);
  removeRow(current, findRow(current, 'Citadel Advisors LLC', 'IT0003261697'));
  const published = sheetOf(book, /date$/i);
  setValue(published, findRow(published, '12/08/2025'), 0, '13/08/2025');
  return writeWorkbook(book, 'xlsx');
}

/** The CNMV's `NetShortPositions.xls` (BIFF8): dates as text padded with spaces, header on row 4. */
export const CNMV_FIXTURE = 'shared:spain/NetShortPositions.xls';

/**
 * The CNMV of 13 Aug 2025: Canada Pension Plan raised Bankinter 1.20% → 1.35% (dated `' 2025-08-13 '`)
 * and Qube's Amper position (Amper's only one) gone; written as BIFF8 with all ten sheets.
 */
export function cnmvChanged(): Buffer {
  const book = readWorkbook(registerBytes(CNMV_FIXTURE));
  const current = sheetOf(book, /current$/i);
  // Columns: issuer LEI, ISIN, issuer, holder, date (text), %.
  const raised = findRow(current, 'Canada Pension Plan Investment Board', 'ES0113679I37');
  setValue(current, raised, 4, ' 2025-08-13 ');
  setValue(current, raised, 5, 1.35);
  removeRow(current, findRow(current, 'Qube Research & Technologies Ltd', 'ES0109260531'));
  const dated = sheetOf(book, 0);
  setValue(dated, findRow(dated, ' 2025-08-12 '), 1, ' 2025-08-13 ');
  return writeWorkbook(book, 'biff8');
}

/** The Central Bank of Ireland's table: % as fractions, headers with colons, data from column B. */
export const CBI_FIXTURE = 'shared:ireland/table-of-significant-net-short-positions-in-shares.xlsx';

/**
 * The CBI table of 13 Aug 2025: GLG raised Uniphar 0.0088 → 0.0095 (0.88% → 0.95%) and Qube opened
 * 0.0061 in Ryanair, a second row in the table (Ryanair is new to the sheet); "Last Updated:" moved on.
 */
export function cbiChanged(): Buffer {
  const book = readWorkbook(registerBytes(CBI_FIXTURE));
  const current = sheetOf(book, /^current$/i);
  // Columns: A title and "Last Updated:", then holder, issuer, ISIN, % (a fraction), date.
  const raised = findRow(current, 'GLG Partners LP', 'IE00BJ5FQX74');
  setValue(current, raised, 4, 0.0095);
  setValue(current, raised, 5, AUG_13);
  putRow(current, raised + 1, raised, [
    'Qube Research & Technologies Limited',
    'Ryanair Holdings PLC',
    'IE00BYTBXV33',
    0.0061,
    AUG_13,
  ]);
  setValue(current, findRow(current, 'Last Updated:') + 1, 0, AUG_13);
  return writeWorkbook(book, 'xlsx');
}

/** The FSMA's current CSV: quoted only sometimes, `"0,53"`, dd/mm/yyyy, no newline after the last row. */
export const FSMA_FIXTURE = 'shared:belgium/de-shortselling.csv';
/** The FSMA's history: newest first, no value below 0.5. */
export const FSMA_HISTORY_FIXTURE = 'shared:belgium/de-shortselling-history.csv';

const WALLEYE_ONTEX = '07/08/2025,,ONTEX,BE0974276082,"Walleye Capital LLC","0,60"';
const NUMERIC_SOLVAY = '08/07/2025,,SOLVAY,BE0003470755,"Numeric Investors LLC","0,69"';

/**
 * The FSMA's current file of 12 Aug 2025: Walleye raised Ontex 0,60 → 0,72 (the row moves to the top,
 * newest first) and Numeric's Solvay position gone. Still no newline after the last row.
 */
export function fsmaChanged(): Buffer {
  const [header, ...rows] = lines(FSMA_FIXTURE);
  const kept = rows.filter((row) => row !== WALLEYE_ONTEX && row !== NUMERIC_SOLVAY);
  if (kept.length !== rows.length - 2) throw new Error('the FSMA fixture lacks a row changed here');
  const raised = '12/08/2025,,ONTEX,BE0974276082,"Walleye Capital LLC","0,72"';
  return Buffer.from([header, raised, ...kept].join('\n'));
}

/**
 * The FSMA's history the same day: Walleye's superseded Ontex row (0,60 of 07/08, changed 12/08) on top.
 * Read as latest row per holder, the history tells Walleye raised 0.51% → 0.60%: a step behind the
 * current file.
 */
export function fsmaHistoryChanged(): Buffer {
  const [header, ...rows] = lines(FSMA_HISTORY_FIXTURE);
  const superseded = '07/08/2025,12/08/2025,ONTEX,BE0974276082,"Walleye Capital LLC","0,60"';
  return Buffer.from([header, superseded, ...rows].join('\n'));
}

function lines(fixture: string): string[] {
  const text = registerBytes(fixture).toString('utf8');
  if (text.endsWith('\n')) throw new Error(`${fixture} now ends with a newline`);
  return text.split('\n');
}

/** The FCA's historic ANSP (built), then the next day's: Vistry's 06/07/2026 value revised 3.10 → 3.25. */
export const ANSP_HISTORIC_FIXTURE = 'uk/aggregated-historic-net-short-positions.2026-09-15.csv';
export const ANSP_HISTORIC_NEXT_FIXTURE = 'uk/aggregated-historic-net-short-positions.2026-09-16.csv';

/** The FCA's legacy workbook (current sheet first, sheet names carrying the refresh date). */
export const LEGACY_FIXTURE = 'shared:united-kingdom/short-positions-daily-update2.xlsx';

/** Three issuers of the legacy workbook whose every holder the "after the boundary" copy drops. */
export const LEGACY_DROPPED = {
  GI000A0F6407: { name: '888 HOLDINGS PLC', lastNamedSum: '1.79%' },
  GB00BF8Q6K64: { name: 'abrdn plc', lastNamedSum: '5.85%' },
  GB00B18S7B29: { name: 'AFC Energy', lastNamedSum: '2.21%' },
} as const;

/**
 * The legacy workbook as refreshed on 10 Jul 2026 (both sheets renamed so) without any holder of the
 * {@link LEGACY_DROPPED} issuers: no more than `regimeBoundary.share` of those it names, so only the source's
 * `namedHoldersUntil` makes it a regime change.
 */
export function legacyDropped(): Buffer {
  const book = readWorkbook(registerBytes(LEGACY_FIXTURE));
  renameSheet(book, 0, 'Current Disclosures 10.07.2026');
  renameSheet(book, 1, 'Historic Disclosures 10.07.2026');
  const current = sheetOf(book, 0);
  for (const isin of Object.keys(LEGACY_DROPPED))
    for (const row of rowsWith(current, isin)) removeRow(current, row);
  return writeWorkbook(book, 'xlsx');
}

/** The legacy workbook emptied: its current sheet keeps its header and no holder (a register past its boundary). */
export function legacyEmptied(): Buffer {
  const book = readWorkbook(registerBytes(LEGACY_FIXTURE));
  const current = sheetOf(book, 0);
  const header = findRow(current, 'ISIN');
  for (let r = (current['!data'] ?? []).length - 1; r > header; r--) removeRow(current, r);
  return writeWorkbook(book, 'xlsx');
}

/** The AFM's history file (every notification, Windows-1252, newest first): every latest position in it is under 0.5%. */
export const AFM_HISTORY_FIXTURE = 'shared:netherlands/nettoshortpositieshistorie.csv';

/**
 * The AFM history with two notifications of 13 Aug 2025 on top: Marshall Wace back above 0.5% in Fugro
 * (0.45% → 0.62%) and Qube Research & Technologies new in Fugro at 0.55%. Edited as Latin-1 text, so
 * the file's Windows-1252 bytes (é, ç) stay as they are.
 */
export function afmHistoryChanged(): Buffer {
  const [header, ...rows] = registerBytes(AFM_HISTORY_FIXTURE).toString('latin1').split('\n');
  const added = [
    '"Marshall Wace LLP";"Fugro N.V.";"NL00150003E1";"0.62";"2025-08-13 00:00:00"',
    '"Qube Research & Technologies Ltd";"Fugro N.V.";"NL00150003E1";"0.55";"2025-08-13 00:00:00"',
  ];
  return Buffer.from([header, ...added, ...rows].join('\n'), 'latin1');
}
