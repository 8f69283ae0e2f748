import { namedRowsWithCells, optionalColumn } from "../named-table.js";
import { issuersFromNotifications } from "../notifications.js";
import { csvDecoder, readerOf } from "../reader.js";
import { snapshotOf } from "../snapshot.js";
import { cellText, requireDate } from "../values.js";
const LAYOUT = {
  header: {
    holder: /^d[ée]tenteur de la position courte nette$/,
    issuer: /^[ée]metteur( \/ issuer)?$/,
    isin: /^code isin$/,
    percent: /^ratio$/,
    date: /^date de d[ée]but (de )?position$/
  }
};
const HOLDER_LEI = /^legal entity identifier d[ée]tenteur$/;
const PUBLISHED_FROM = /^date de d[ée]but de publication position$/;
const PUBLISHED_UNTIL = /^date de fin de publication position$/;
const LEI = /^[A-Z0-9]{18}\d{2}$/;
function parseAmf(table) {
  const sheet = table.sheets[0]?.rows ?? [];
  const read = namedRowsWithCells(sheet, LAYOUT);
  const header = read[0]?.header ?? 0;
  const lei = optionalColumn(sheet, header, HOLDER_LEI);
  const from = optionalColumn(sheet, header, PUBLISHED_FROM);
  const until = optionalColumn(sheet, header, PUBLISHED_UNTIL);
  const rows = read.map(({ row, cells }, i) => {
    const notification = row;
    const holderLei = lei === void 0 ? "" : cellText(cells[lei]).toUpperCase();
    if (LEI.test(holderLei)) notification.holderLei = holderLei;
    if (from !== void 0 && cellText(cells[from]) !== "")
      notification.reportedOn = requireDate(cells[from], `data row ${i + 1}`);
    if (until !== void 0 && cellText(cells[until]) !== "") {
      requireDate(cells[until], `data row ${i + 1}`);
      notification.ended = true;
    }
    return notification;
  });
  return snapshotOf("fr-amf", issuersFromNotifications(rows, true), rows.length);
}
const amf = readerOf({ decode: csvDecoder("utf-8", ";"), parse: parseAmf });
export {
  amf
};
