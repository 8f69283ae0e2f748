import { CliError, EXIT } from './exit.js';

// Plain decimal digits only: Number() would also take '', ' ', '0x10', '1e3' and 'Infinity'.
const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/** A count option such as `--limit`: a whole number of at least 1, else a usage error naming the flag. */
export function parseCount(text: string, flag: string): number {
  const value = Number(text.trim());
  if (!WHOLE.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new CliError(`${flag} must be a whole number of at least 1 (got "${text}")`, EXIT.usage);
  }
  return value;
}

/**
 * A position option such as `--value`: a percentage of issued capital, from 0 to 100, written as a
 * plain decimal (`0.75`, no `%`); anything else is a usage error naming the flag.
 */
export function parsePercent(text: string, flag: string): number {
  const value = Number(text.trim());
  if (!DECIMAL.test(text.trim()) || value > 100) {
    throw new CliError(
      `${flag} must be a percentage of issued capital from 0 to 100, e.g. 0.75 (got "${text}")`,
      EXIT.usage,
    );
  }
  return value;
}
