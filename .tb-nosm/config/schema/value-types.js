import { z } from "zod";
import { parseDuration } from "../duration.js";
import { Secret } from "../secret.js";
const secret = z.string().min(1, "must not be empty").transform((value) => new Secret(value));
const duration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === void 0) {
    ctx.addIssue({ code: "custom", message: `"${value}" is not a duration (use e.g. 90s, 2m, 6h, 7d)` });
    return z.NEVER;
  }
  return ms;
});
const ianaTimezone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat("en-GB", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: "is not an IANA time zone (e.g. Europe/London)" }
);
const percent = z.number().finite().min(0).max(100);
const positiveCount = z.union([z.number(), z.string().regex(/^\d+$/, "must be a whole number").transform(Number)]).pipe(z.number().int().positive());
export {
  duration,
  ianaTimezone,
  percent,
  positiveCount,
  secret
};
