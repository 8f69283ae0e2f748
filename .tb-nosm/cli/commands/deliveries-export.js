import { EXPORT_FORMATS, exportChunks } from "../../record/export.js";
import { parseInstant } from "../../record/time-range.js";
import { DeliveryRecord } from "../../state/delivery-record.js";
import { withApp } from "../context.js";
import { CliError, EXIT } from "../exit.js";
function instant(text, option, nowMs, endOfDay) {
  const at = parseInstant(text, nowMs, endOfDay);
  if (at === void 0)
    throw new CliError(
      `${option} "${text}" is not a date, a date-time or a duration (e.g. 2026-11-01, 7d)`,
      EXIT.usage
    );
  return at;
}
function exportQuery(options, nowMs) {
  const format = EXPORT_FORMATS.find((f) => f === (options.format ?? "csv"));
  if (!format) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(", ")}`, EXIT.usage);
  const sinceMs = instant(options.since, "--since", nowMs, false);
  const until = options.until === void 0 ? nowMs : instant(options.until, "--until", nowMs, true);
  const untilMs = options.asOf === void 0 ? until : Math.min(until, instant(options.asOf, "--as-of", nowMs, true));
  if (untilMs < sinceMs) throw new CliError("--until is before --since", EXIT.usage);
  const { channel, issuer, holder } = options;
  const filters = {
    ...channel ? { channel } : {},
    ...issuer ? { issuer } : {},
    ...holder ? { holder } : {}
  };
  return { query: { sinceMs, untilMs, ...filters }, format };
}
async function exportCommand(ctx, options) {
  await withApp(ctx, async (app) => {
    const { query, format } = exportQuery(options, app.ctx.now().getTime());
    const record = new DeliveryRecord(app.redis, app.ctx.prefix);
    for await (const chunk of exportChunks(record, query, format)) ctx.out(chunk.slice(0, -1));
  });
}
export {
  exportCommand,
  exportQuery
};
