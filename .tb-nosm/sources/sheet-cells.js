const ODS_TAG = /<(\/?)(?:[\w.-]+:)?(table-row|table-cell|covered-table-cell|table)(?=[\s/>])([^>]*)>/g;
const XLSX_TAG = /<(?:[\w.-]+:)?(row|c)(?=[\s/>])(?:[^>]*?\sr\s*=\s*["']([^"']*)["'])?[^>]*>/g;
function odsCells(xml) {
  let total = 0;
  let walk = newWalk();
  for (const [, closing, tag, attributes = ""] of xml.matchAll(ODS_TAG)) {
    const selfClosing = attributes.endsWith("/");
    if (tag === "table") {
      total += area(walk);
      walk = newWalk();
    } else if (tag === "table-row") {
      if (closing !== "") walk.row += walk.rowRepeat;
      else if (selfClosing) walk.row += rowRepeat(attributes);
      else {
        walk.rowRepeat = rowRepeat(attributes);
        walk.column = 0;
      }
    } else if (closing === "") {
      cell(walk, tag === "table-cell" && !selfClosing, attributes);
    }
  }
  return total + area(walk);
}
function newWalk() {
  return { row: 0, rowRepeat: 1, column: 0, rows: 0, columns: 0, loose: 0 };
}
function cell(walk, withContent, attributes) {
  const repeat = columnRepeat(attributes);
  if (withContent) {
    walk.rows = Math.max(walk.rows, walk.row + walk.rowRepeat);
    walk.columns = Math.max(walk.columns, walk.column + repeat);
  } else if (/value-type\s*=\s*["']string["']/.test(attributes)) {
    walk.loose += 1;
  }
  walk.column += repeat;
}
function area(walk) {
  return walk.rows * walk.columns + walk.loose;
}
function rowRepeat(attributes) {
  const value = Number(attribute(attributes, "number-rows-repeated"));
  return Number.isFinite(value) && value >= 1 ? value : 1;
}
function columnRepeat(attributes) {
  const value = Number.parseInt(attribute(attributes, "number-columns-repeated") ?? "1", 10);
  return Number.isFinite(value) && value >= 1 ? value : 1;
}
const ATTRIBUTES = /* @__PURE__ */ new Map();
function attribute(attributes, name) {
  let pattern = ATTRIBUTES.get(name);
  if (pattern === void 0) {
    pattern = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*["']([^"']*)["']`);
    ATTRIBUTES.set(name, pattern);
  }
  return pattern.exec(attributes)?.[1];
}
function xlsxCells(xml) {
  let row = 0;
  let column = 0;
  let rows = 0;
  let columns = 0;
  for (const [, tag, reference] of xml.matchAll(XLSX_TAG)) {
    if (tag === "row") {
      row = reference === void 0 ? row + 1 : Number.parseInt(reference, 10) || row + 1;
      column = 0;
      rows = Math.max(rows, row);
      continue;
    }
    const cell2 = reference === void 0 ? void 0 : /^([A-Za-z]{1,3})(\d+)$/.exec(reference);
    column = cell2?.[1] === void 0 ? column + 1 : columnNumber(cell2[1]);
    rows = Math.max(rows, cell2?.[2] === void 0 ? row : Number(cell2[2]));
    columns = Math.max(columns, column);
  }
  return rows * columns;
}
function columnNumber(letters) {
  let n = 0;
  for (const letter of letters.toUpperCase()) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n;
}
export {
  odsCells,
  xlsxCells
};
