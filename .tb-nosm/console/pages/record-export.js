import { EXPORT_FORMATS, exportChunks } from "../../record/export.js";
import { DeliveryRecord } from "../../state/delivery-record.js";
import { recordSearchOf } from "./record-section.js";
const TYPES = { csv: "text/csv; charset=utf-8", jsonl: "application/jsonl; charset=utf-8" };
async function exportDownload(ctx) {
  const format = EXPORT_FORMATS.find((f) => f === ctx.query.get("format")) ?? "csv";
  const nowMs = ctx.app.ctx.now().getTime();
  const { query } = recordSearchOf(ctx.query, nowMs);
  const record = new DeliveryRecord(ctx.app.redis, ctx.app.ctx.prefix);
  const day = new Date(nowMs).toISOString().slice(0, 10);
  return {
    kind: "download",
    type: TYPES[format],
    filename: `shortwatch-deliveries-${day}.${format}`,
    chunks: exportChunks(record, query, format)
  };
}
export {
  exportDownload
};
