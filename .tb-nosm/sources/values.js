import { DAY_MS } from "../time/units.js";
import { RegisterReadError } from "./errors.js";
const EXCEL_EPOCH_DAYS = -25569;
function cellText(cell) {
  if (cell === null || cell === void 0) return "";
  return String(cell).trim();
}
function parsePercent(cell) {
  if (typeof cell === "number") return Number.isFinite(cell) ? cell : void 0;
  const text = cellText(cell).replace(/%$/, "").trim();
  if (/^<\s*0[.,]5$/.test(text)) return 0;
  if (!/^-?\d+([.,]\d+)?$/.test(text)) return void 0;
  return Number(text.replace(",", "."));
}
function parseDate(cell) {
  if (typeof cell === "number") return excelSerialDate(cell);
  const text = cellText(cell);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(text);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dmy = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(text);
  if (dmy) return validDate(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]));
  return void 0;
}
function excelSerialDate(serial) {
  if (!Number.isFinite(serial) || serial < 1 || serial > 11e4) return void 0;
  return new Date((Math.floor(serial) + EXCEL_EPOCH_DAYS) * DAY_MS).toISOString().slice(0, 10);
}
function validDate(year, month, day) {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return void 0;
  return date.toISOString().slice(0, 10);
}
function requirePercent(cell, where) {
  const value = parsePercent(cell);
  if (value === void 0 || value < 0 || value > 100) {
    throw new RegisterReadError("unparseable", `${where}: "${cellText(cell)}" is not a percentage`);
  }
  return value;
}
function requireDate(cell, where) {
  const value = parseDate(cell);
  if (value === void 0) {
    throw new RegisterReadError("unparseable", `${where}: "${cellText(cell)}" is not a date`);
  }
  return value;
}
const ISIN = /^[A-Z]{2}[A-Z0-9]{9}\d$/;
function looksLikeIsin(text) {
  return ISIN.test(text.trim().toUpperCase());
}
function requireIsin(cell, where) {
  const isin = cellText(cell).toUpperCase();
  if (!ISIN.test(isin)) throw new RegisterReadError("unparseable", `${where}: "${isin}" is not an ISIN`);
  return isin;
}
export {
  cellText,
  excelSerialDate,
  looksLikeIsin,
  parseDate,
  parsePercent,
  requireDate,
  requireIsin,
  requirePercent
};
