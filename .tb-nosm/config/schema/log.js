import { z } from "zod";
const logSchema = z.strictObject({
  level: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info").describe("Minimum level written."),
  format: z.enum(["auto", "json", "pretty"]).default("auto").describe("`json` for machines, `pretty` for a terminal; `auto` picks pretty on a TTY.")
}).describe("Log output: pino, on standard error.");
export {
  logSchema
};
