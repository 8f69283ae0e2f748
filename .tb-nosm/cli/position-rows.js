import { formatPercent } from "../channels/format.js";
import { compareText } from "../positions/collapse.js";
import { collapseRows, holderKey, totalShort } from "../positions/index.js";
function activeTable(data) {
  const held = collapseRows(data);
  const rows = Object.values(held).sort((a, b) => b.value - a.value || compareText(a.holder, b.holder)).map((p) => [p.holder, formatPercent(p.value), p.date]);
  return {
    rows,
    summary: `${holders(rows.length)}, total disclosed short ${formatPercent(totalShort(held))}`
  };
}
function historyTable(data) {
  const rows = [...data].sort((a, b) => b.date.localeCompare(a.date) || b.value - a.value).map((p) => [p.position_holder, formatPercent(p.value), p.date]);
  const keys = new Set(data.map((p) => holderKey(p.position_holder)));
  return { rows, summary: `${rows.length} disclosures by ${holders(keys.size)}` };
}
function holders(count) {
  return count === 1 ? "1 holder" : `${count} holders`;
}
export {
  activeTable,
  historyTable
};
