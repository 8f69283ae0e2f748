import { z } from "zod";
import { findHeader } from "../columns.js";
import { decodeText } from "../decode.js";
import { RegisterReadError } from "../errors.js";
import { innermostTables, pageText } from "../html-table.js";
import { namedRows } from "../named-table.js";
import { issuersFromNotifications } from "../notifications.js";
import { readerOf } from "../reader.js";
import { snapshotOf } from "../snapshot.js";
import { cellText, requireDate, requireIsin, requirePercent } from "../values.js";
import { decodeJson } from "./norway.js";
const LAYOUT = {
  header: {
    holder: /^(posiadacz pozycji krótkiej|position holder)/,
    issuer: /^(nazwa papieru|name of (the )?(security|issuer))/,
    isin: /^isin$/,
    percent: /^(pozycja krótka netto|net short position)/,
    date: /^(data obliczenia pozycji|position date|calculation date)/
  }
};
const PAGER = /(\d+)\s*\/\s*(\d+)\s*\((\d+)\)/;
function knfPageRows(bytes) {
  const html = decodeText(bytes, "utf-8");
  const table = innermostTables(html).find(hasPositionsHeader);
  if (table === void 0) {
    throw new RegisterReadError(
      "html-page",
      `no positions table on the page: "${pageText(html).slice(0, 160)}"`
    );
  }
  const pager = PAGER.exec(table.footer);
  const rows = namedRows(table.rows.map(withoutRowNumber), LAYOUT);
  if (pager !== null && Number(pager[3]) > rows.length) {
    throw new RegisterReadError(
      "truncated",
      `page ${pager[1]} of ${pager[2]} holds ${rows.length} of ${pager[3]} records (read KNF's JSON API, which pages)`
    );
  }
  return rows;
}
function hasPositionsHeader(table) {
  try {
    findHeader(table.rows, LAYOUT.header, table.rows.length);
    return true;
  } catch {
    return false;
  }
}
function withoutRowNumber(row) {
  return /^\d*$/.test(cellText(row[0])) ? row.slice(1) : row;
}
const recordSchema = z.object({
  HOLDER_FULL_NAME: z.string(),
  ISSUER_NAME: z.string(),
  ISIN: z.string(),
  NET_SHORT_POSITION_O: z.union([z.string(), z.number()]),
  POSITION_DATE: z.string(),
  MODIFY_DATE: z.string().nullish()
});
const replySchema = z.object({
  status: z.string().optional(),
  total: z.number().int().min(0).optional(),
  records: z.array(recordSchema)
});
function knfJsonRows(json) {
  const parsed = replySchema.safeParse(json);
  if (!parsed.success) {
    throw new RegisterReadError(
      "wrong-header",
      `not KNF's records reply: ${parsed.error.issues[0]?.message}`
    );
  }
  const { status, total, records } = parsed.data;
  if (status !== void 0 && status !== "success") {
    throw new RegisterReadError("unparseable", `KNF answered status "${status}"`);
  }
  if (total !== void 0 && total !== records.length) {
    throw new RegisterReadError("truncated", `${records.length} of ${total} records`);
  }
  return records.map((record, i) => {
    const where = `record ${i + 1}`;
    return {
      isin: requireIsin(record.ISIN, where),
      // Names come HTML-escaped (`&amp;`), as the page shows them.
      issuer: pageText(record.ISSUER_NAME),
      holder: pageText(record.HOLDER_FULL_NAME),
      percent: requirePercent(record.NET_SHORT_POSITION_O, where),
      date: requireDate(record.POSITION_DATE, where)
    };
  });
}
function snapshot(kind, rows, history) {
  return snapshotOf(kind, issuersFromNotifications(rows, history), rows.length);
}
const knfHtml = {
  ...readerOf({ decode: knfPageRows, parse: (rows) => snapshot("pl-knf-html", rows, false) }),
  readsHtml: true
};
const knfJsonCurrent = readerOf({
  decode: decodeJson,
  parse: (json) => snapshot("pl-knf-json-current", knfJsonRows(json), false)
});
const knfJsonHistory = readerOf({
  decode: decodeJson,
  parse: (json) => snapshot("pl-knf-json-history", knfJsonRows(json), true)
});
export {
  knfHtml,
  knfJsonCurrent,
  knfJsonHistory,
  knfPageRows
};
