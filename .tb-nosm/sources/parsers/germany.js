import { decodeCsv, decodeText } from "../decode.js";
import { RegisterReadError } from "../errors.js";
import { namedRows } from "../named-table.js";
import { issuersFromNotifications } from "../notifications.js";
import { readerOf } from "../reader.js";
import { snapshotOf } from "../snapshot.js";
const LAYOUT = {
  header: {
    holder: /^(positionsinhaber|position holder)$/,
    issuer: /^(emittent|issuer)$/,
    isin: /^isin$/,
    percent: /^(position|net short position)( \(%\))?$/,
    date: /^(datum|date|position date)$/
  }
};
function decodeBanz(bytes) {
  const text = decodeText(bytes, "utf-8");
  if (/^\s*</.test(text)) {
    throw new RegisterReadError(
      "html-page",
      "an HTML page (an expired session?) was served in place of the CSV"
    );
  }
  return decodeCsv(text, ",");
}
function parseBanz(kind, table) {
  const all = namedRows(table.sheets[0]?.rows ?? [], LAYOUT);
  const seen = /* @__PURE__ */ new Set();
  const rows = all.filter((row) => {
    const key = JSON.stringify([row.holder, row.isin, row.percent, row.date]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return snapshotOf(kind, issuersFromNotifications(rows, kind === "de-banz-history"), all.length);
}
const banzCurrent = readerOf({ decode: decodeBanz, parse: (t) => parseBanz("de-banz-current", t) });
const banzHistory = readerOf({ decode: decodeBanz, parse: (t) => parseBanz("de-banz-history", t) });
export {
  banzCurrent,
  banzHistory
};
