import { parse as parseCsv } from "csv-parse/sync";
import { stringify as stringifyCsv } from "csv-stringify/sync";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { z } from "zod";
const CSV_COLUMNS = [
  "name",
  "email",
  "issuers",
  "holders",
  "kinds",
  "minValue",
  "minDelta",
  "aggregates",
  "mode",
  "timezone",
  "digestSchedule",
  "paused"
];
const cell = z.string().trim().optional();
const csvRow = z.object(
  Object.fromEntries(CSV_COLUMNS.map((c) => [c, cell]))
);
function list(value) {
  return (value ?? "").split(/[;|]/u).map((item) => item.trim()).filter((item) => item !== "");
}
function number(value) {
  if (value === void 0 || value === "") return void 0;
  return Number(value.replace(",", "."));
}
function flag(value) {
  if (value === void 0 || value === "") return void 0;
  return /^(1|true|yes|y)$/iu.test(value);
}
function fromCsvRow(row) {
  const prefs = {
    kinds: (row.kinds ?? "").split(/[;|,\s]/u).filter((kind) => kind !== ""),
    minValue: number(row.minValue),
    minDelta: number(row.minDelta),
    aggregates: flag(row.aggregates),
    mode: row.mode || void 0,
    timezone: row.timezone || void 0,
    digestSchedule: row.digestSchedule || void 0,
    paused: flag(row.paused)
  };
  return {
    name: row.name ?? "",
    email: row.email ?? "",
    watch: { issuers: list(row.issuers), holders: list(row.holders) },
    prefs: Object.fromEntries(
      Object.entries(prefs).filter(([, v]) => v !== void 0)
    )
  };
}
function readSubscriberFile(text, format) {
  if (format === "yaml") {
    const parsed = parseYaml(text);
    const items = Array.isArray(parsed) ? parsed : z.object({ subscribers: z.array(z.unknown()) }).parse(parsed).subscribers;
    return items.map((input, index) => ({ row: index + 1, input }));
  }
  const firstLine = text.split(/\r?\n/u, 1)[0] ?? "";
  const delimiter = (firstLine.match(/;/gu)?.length ?? 0) > (firstLine.match(/,/gu)?.length ?? 0) ? ";" : ",";
  const records = parseCsv(text, {
    columns: true,
    bom: true,
    delimiter,
    skip_empty_lines: true,
    trim: true
  });
  return records.map((record, index) => {
    const row = csvRow.safeParse(record);
    return { row: index + 2, input: row.success ? fromCsvRow(row.data) : record };
  });
}
function subscribersCsv(subscribers) {
  const rows = subscribers.map((s) => [
    s.name,
    s.email,
    s.watch.issuers.join("; "),
    s.watch.holders.join("; "),
    s.prefs.kinds.join("; "),
    s.prefs.minValue ?? "",
    s.prefs.minDelta ?? "",
    String(s.prefs.aggregates),
    s.prefs.mode,
    s.prefs.timezone,
    s.prefs.digestSchedule,
    String(s.prefs.paused)
  ]);
  return stringifyCsv([[...CSV_COLUMNS], ...rows]);
}
function subscribersYaml(subscribers) {
  return stringifyYaml({
    subscribers: subscribers.map(({ name, email, watch, prefs }) => ({ name, email, watch, prefs }))
  });
}
export {
  CSV_COLUMNS,
  readSubscriberFile,
  subscribersCsv,
  subscribersYaml
};
