import { stringify } from "csv-stringify/sync";
import { matchingPages } from "./search.js";
const EXPORT_FORMATS = ["csv", "jsonl"];
const EXPORT_COLUMNS = [
  "at",
  "channel",
  "channel_kind",
  "delivery_id",
  "message_id",
  "type",
  "issuer_ids",
  "issuers",
  "holders",
  "kinds",
  "events",
  "event_ids",
  "disclosed_on",
  "first_seen",
  "answer",
  "action",
  "cause",
  "status",
  "error"
];
function exportRow(row) {
  return {
    at: new Date(row.at).toISOString(),
    channel: row.channel,
    channel_kind: row.channelKind,
    delivery_id: row.deliveryId,
    message_id: row.messageId ?? "",
    type: row.type,
    issuer_ids: row.issuers.map((i) => i.id).join("; "),
    issuers: row.issuers.map((i) => i.name).join("; "),
    holders: row.holders.join("; "),
    kinds: row.kinds.join("; "),
    events: row.events,
    event_ids: (row.eventIds ?? []).join("; "),
    // Both times of the message's events: the dates the sources give them, and when first seen.
    disclosed_on: (row.disclosedOn ?? []).join("; "),
    first_seen: (row.firstSeen ?? []).join("; "),
    answer: row.answer,
    action: row.action ?? "",
    cause: row.cause ?? "",
    status: row.status ?? "",
    error: row.error ?? ""
  };
}
function jsonLine(row) {
  const { id: _id, at, ...rest } = row;
  return `${JSON.stringify({ at: new Date(at).toISOString(), ...rest })}
`;
}
function csvChunk(rows, header) {
  return stringify(rows.map(exportRow), {
    header,
    columns: [...EXPORT_COLUMNS],
    record_delimiter: "windows",
    escape_formulas: true,
    cast: { number: (value) => String(value) }
  });
}
async function* exportChunks(record, query, format) {
  let first = true;
  for await (const rows of matchingPages(record, query)) {
    yield format === "csv" ? csvChunk(rows, first) : rows.map(jsonLine).join("");
    first = false;
  }
  if (first && format === "csv") yield csvChunk([], true);
}
export {
  EXPORT_COLUMNS,
  EXPORT_FORMATS,
  exportChunks,
  exportRow
};
