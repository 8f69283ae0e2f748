import type { RegisterKind } from '../../config/schema/sources.js';
import { type NamedTableLayout, namedRows } from '../named-table.js';
import { csvDecoder, readerOf, type SheetPick, sheet, workbookDecoder } from '../reader.js';
import { issuersFromPositions, snapshotOf } from '../snapshot.js';
import type { DecodedTable, RegisterSnapshot } from '../types.js';
import { cellText, parseDate } from '../values.js';

/** A parse of one named-holder sheet, with the file's publication date where it states one. */
function namedParse(
  kind: RegisterKind,
  pick: SheetPick,
  layout: NamedTableLayout,
  options: { history?: boolean; publishedOn?: (table: DecodedTable) => string | undefined } = {},
): (table: DecodedTable) => RegisterSnapshot {
  return (table) => {
    const rows = namedRows(sheet(table, pick).rows, layout);
    return snapshotOf(kind, issuersFromPositions(rows, options.history), rows.length, {
      publishedOn: options.publishedOn?.(table),
    });
  };
}

/** The first cell of `pick`'s sheet that reads as a date (CONSOB and CNMV keep one on its own sheet). */
function dateSheet(pick: SheetPick): (table: DecodedTable) => string | undefined {
  return (table) => {
    const cells = sheet(table, pick).rows.flat();
    for (const cell of cells) {
      const date = parseDate(cellText(cell));
      if (date !== undefined) return date;
    }
    return undefined;
  };
}

// The legacy UK workbook: sheet names carry the refresh date, so the first sheet is read by position.
const UK_LEGACY: NamedTableLayout = {
  header: {
    holder: /^position holder$/,
    issuer: /^name of share issuer$/,
    isin: /^isin$/,
    percent: /^net short position/,
    date: /^position date$/,
  },
};

// CONSOB: Italian header then English; sheet names padded with spaces; dates are Excel serials.
const CONSOB: NamedTableLayout = {
  header: {
    holder: /^position holder$/,
    issuer: /^share issuer$/,
    isin: /^isin$/,
    percent: /^net short position/,
    date: /^position date$/,
  },
  lei: /^lei of share issuer$/,
};

// CNMV: three blank rows, then a bilingual header; the LEI is the issuer's; dates are text padded with spaces.
const CNMV: NamedTableLayout = {
  header: {
    holder: /position holder$/,
    issuer: /\/ issuer$/,
    isin: /^isin$/,
    percent: /net short position \(%\)$/,
    date: /position date$/,
  },
  lei: /^lei$/,
};

// Central Bank of Ireland: headers end in colons, data from column B. Its cells hold fractions shown as
// per cents (0.0088 shown as 0.88%), which the decoder reads as shown: were it to switch to plain per-cent
// numbers, they would read alike.
const CBI: NamedTableLayout = {
  header: {
    holder: /^position holder:?$/,
    issuer: /^name of the issuer:?$/,
    isin: /^isin:?$/,
    percent: /^net short position %:?$/,
    date: /^position date:?$/,
  },
};

// FSMA: comma-separated, quoted only sometimes, decimal comma, dd/mm/yyyy, no final newline.
const FSMA: NamedTableLayout = {
  header: {
    holder: /^position holder$/,
    issuer: /^issuer$/,
    isin: /^isin$/,
    percent: /^net short position$/,
    date: /^position date$/,
  },
};

/** The FCA's legacy named-holder workbook (last refreshed 10 Jul 2026): its current sheet. */
export const ukLegacyHolders = readerOf({
  decode: workbookDecoder({ sheets: [{ index: 0 }] }),
  parse: namedParse('uk-legacy-holders', { index: 0 }, UK_LEGACY),
});

/** CONSOB's `PncPubbl.xlsx`: the current sheet, dated by its publication-date sheet. */
export const consob = readerOf({
  decode: workbookDecoder({ sheets: [{ name: /current$/i }, { name: /date$/i }] }),
  parse: namedParse('it-consob', { name: /current$/i }, CONSOB, {
    publishedOn: dateSheet({ name: /date$/i }),
  }),
});

/** The CNMV's `NetShortPositions.xls` (BIFF8): the current sheet, dated by its date sheet. */
export const cnmv = readerOf({
  // 39 current rows in a stream of 13,000: the first 1,000 rows of each sheet are read first.
  decode: workbookDecoder({ sheets: [{ index: 0 }, { name: /current$/i }], rowsAtFirst: 1_000 }),
  parse: namedParse('es-cnmv', { name: /current$/i }, CNMV, { publishedOn: dateSheet({ index: 0 }) }),
});

/** The Central Bank of Ireland's table of significant net short positions: the current sheet. */
export const cbi = readerOf({
  decode: workbookDecoder({ sheets: [{ name: /^current$/i }] }),
  parse: namedParse('ie-cbi', { name: /^current$/i }, CBI),
});

/** The FSMA's `de-shortselling.csv` (current positions). */
export const fsmaCurrent = readerOf({
  decode: csvDecoder('utf-8', ','),
  parse: namedParse('be-fsma-current', { index: 0 }, FSMA),
});

// The FSMA's history: every notification a later one replaced, on its "Change Position Date".
const FSMA_HISTORY: NamedTableLayout = { ...FSMA, replacedOn: /^change position date$/ };

/** The FSMA's `de-shortselling-history.csv`: every row kept as `history`; every row is replaced, so none is held. */
export const fsmaHistory = readerOf({
  decode: csvDecoder('utf-8', ','),
  parse: namedParse('be-fsma-history', { index: 0 }, FSMA_HISTORY, { history: true }),
});
