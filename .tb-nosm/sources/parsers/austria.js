import { namedRowsWithCells, optionalColumn } from "../named-table.js";
import { issuersFromNotifications } from "../notifications.js";
import { csvDecoder, readerOf } from "../reader.js";
import { snapshotOf } from "../snapshot.js";
import { cellText, requireDate } from "../values.js";
const LAYOUT = {
  header: {
    holder: /^position holder$/,
    issuer: /^issuer$/,
    isin: /^isin( code)?$/,
    percent: /^net short position ?\(%\)$/,
    date: /^position date$/
  }
};
const REPORTED = /^reporting date$/;
const CANCELLED = /^cancellation date$/;
function parseFma(table) {
  const sheet = table.sheets[0]?.rows ?? [];
  const read = namedRowsWithCells(sheet, LAYOUT);
  const header = read[0]?.header ?? 0;
  const reported = optionalColumn(sheet, header, REPORTED);
  const cancelled = optionalColumn(sheet, header, CANCELLED);
  const rows = [];
  read.forEach(({ row, cells }, i) => {
    if (cancelled !== void 0 && cellText(cells[cancelled]) !== "") return;
    const notification = row;
    if (reported !== void 0 && cellText(cells[reported]) !== "")
      notification.reportedOn = requireDate(cells[reported], `data row ${i + 1}`);
    rows.push(notification);
  });
  return snapshotOf("at-fma-history", issuersFromNotifications(rows, true), read.length);
}
const fmaHistory = readerOf({ decode: csvDecoder("utf-8", ","), parse: parseFma });
export {
  fmaHistory
};
