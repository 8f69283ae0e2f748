import { namedRows } from "../named-table.js";
import { csvDecoder, readerOf, sheet, workbookDecoder } from "../reader.js";
import { issuersFromPositions, snapshotOf } from "../snapshot.js";
import { cellText, parseDate } from "../values.js";
function namedParse(kind, pick, layout, options = {}) {
  return (table) => {
    const rows = namedRows(sheet(table, pick).rows, layout);
    return snapshotOf(kind, issuersFromPositions(rows, options.history), rows.length, {
      publishedOn: options.publishedOn?.(table)
    });
  };
}
function dateSheet(pick) {
  return (table) => {
    const cells = sheet(table, pick).rows.flat();
    for (const cell of cells) {
      const date = parseDate(cellText(cell));
      if (date !== void 0) return date;
    }
    return void 0;
  };
}
const UK_LEGACY = {
  header: {
    holder: /^position holder$/,
    issuer: /^name of share issuer$/,
    isin: /^isin$/,
    percent: /^net short position/,
    date: /^position date$/
  }
};
const CONSOB = {
  header: {
    holder: /^position holder$/,
    issuer: /^share issuer$/,
    isin: /^isin$/,
    percent: /^net short position/,
    date: /^position date$/
  },
  lei: /^lei of share issuer$/
};
const CNMV = {
  header: {
    holder: /position holder$/,
    issuer: /\/ issuer$/,
    isin: /^isin$/,
    percent: /net short position \(%\)$/,
    date: /position date$/
  },
  lei: /^lei$/
};
const CBI = {
  header: {
    holder: /^position holder:?$/,
    issuer: /^name of the issuer:?$/,
    isin: /^isin:?$/,
    percent: /^net short position %:?$/,
    date: /^position date:?$/
  }
};
const FSMA = {
  header: {
    holder: /^position holder$/,
    issuer: /^issuer$/,
    isin: /^isin$/,
    percent: /^net short position$/,
    date: /^position date$/
  }
};
const ukLegacyHolders = readerOf({
  decode: workbookDecoder({ sheets: [{ index: 0 }] }),
  parse: namedParse("uk-legacy-holders", { index: 0 }, UK_LEGACY)
});
const consob = readerOf({
  decode: workbookDecoder({ sheets: [{ name: /current$/i }, { name: /date$/i }] }),
  parse: namedParse("it-consob", { name: /current$/i }, CONSOB, {
    publishedOn: dateSheet({ name: /date$/i })
  })
});
const cnmv = readerOf({
  // 39 current rows in a stream of 13,000: the first 1,000 rows of each sheet are read first.
  decode: workbookDecoder({ sheets: [{ index: 0 }, { name: /current$/i }], rowsAtFirst: 1e3 }),
  parse: namedParse("es-cnmv", { name: /current$/i }, CNMV, { publishedOn: dateSheet({ index: 0 }) })
});
const cbi = readerOf({
  decode: workbookDecoder({ sheets: [{ name: /^current$/i }] }),
  parse: namedParse("ie-cbi", { name: /^current$/i }, CBI)
});
const fsmaCurrent = readerOf({
  decode: csvDecoder("utf-8", ","),
  parse: namedParse("be-fsma-current", { index: 0 }, FSMA)
});
const FSMA_HISTORY = { ...FSMA, replacedOn: /^change position date$/ };
const fsmaHistory = readerOf({
  decode: csvDecoder("utf-8", ","),
  parse: namedParse("be-fsma-history", { index: 0 }, FSMA_HISTORY, { history: true })
});
export {
  cbi,
  cnmv,
  consob,
  fsmaCurrent,
  fsmaHistory,
  ukLegacyHolders
};
