import { CliError, EXIT } from "./exit.js";
const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;
function parseCount(text, flag) {
  const value = Number(text.trim());
  if (!WHOLE.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new CliError(`${flag} must be a whole number of at least 1 (got "${text}")`, EXIT.usage);
  }
  return value;
}
function parsePercent(text, flag) {
  const value = Number(text.trim());
  if (!DECIMAL.test(text.trim()) || value > 100) {
    throw new CliError(
      `${flag} must be a percentage of issued capital from 0 to 100, e.g. 0.75 (got "${text}")`,
      EXIT.usage
    );
  }
  return value;
}
export {
  parseCount,
  parsePercent
};
