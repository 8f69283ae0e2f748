import { z } from "zod";
import { findHeader, rowsBelow } from "../columns.js";
import { decodeText } from "../decode.js";
import { RegisterReadError } from "../errors.js";
import { csvDecoder, readerOf } from "../reader.js";
import { issuersFromPoints, namedPosition, snapshotOf } from "../snapshot.js";
import { cellText, requireDate, requireIsin, requirePercent } from "../values.js";
const NO_THRESHOLD = 0.5;
const positionSchema = z.object({
  date: z.string(),
  shortPercent: z.number(),
  positionHolder: z.string()
});
const eventSchema = z.object({
  date: z.string(),
  shortPercent: z.number(),
  activePositions: z.array(positionSchema)
});
const instrumentsSchema = z.array(
  z.object({ isin: z.string(), issuerName: z.string(), events: z.array(eventSchema) })
);
function decodeJson(bytes) {
  const text = decodeText(bytes, "utf-8");
  try {
    return JSON.parse(text);
  } catch (error) {
    const closed = /[\]}]\s*$/.test(text);
    throw new RegisterReadError(closed ? "unparseable" : "truncated", "the JSON cannot be parsed", {
      cause: error
    });
  }
}
function parseSsrJson(json) {
  const parsed = instrumentsSchema.safeParse(json);
  if (!parsed.success) {
    throw new RegisterReadError(
      "wrong-header",
      `not the SSR instruments shape: ${parsed.error.issues[0]?.message}`
    );
  }
  let rows = 0;
  const issuers = parsed.data.map((instrument) => {
    rows += instrument.events.length;
    const events = [...instrument.events].sort((a, b) => a.date.localeCompare(b.date));
    const latest = events.at(-1);
    const issuer = {
      key: instrument.isin,
      isin: instrument.isin,
      name: instrument.issuerName.trim(),
      positions: (latest?.activePositions ?? []).map(
        (p) => namedPosition(p.positionHolder, p.shortPercent, p.date)
      ),
      aggregateHistory: events.map((e) => ({ date: e.date, percent: e.shortPercent })),
      history: positionHistory(events)
    };
    if (latest !== void 0 && latest.shortPercent > 0) {
      issuer.aggregate = { percent: latest.shortPercent, date: latest.date, thresholdPercent: NO_THRESHOLD };
    }
    issuer.positions.sort((a, b) => b.percent - a.percent || a.holderKey.localeCompare(b.holderKey));
    return issuer;
  });
  return snapshotOf("no-ssr-json", issuers, rows, { aggregateThreshold: NO_THRESHOLD });
}
function positionHistory(events) {
  const seen = /* @__PURE__ */ new Map();
  for (const event of events) {
    for (const p of event.activePositions) {
      const position = namedPosition(p.positionHolder, p.shortPercent, p.date);
      seen.set(`${position.holderKey}|${position.date}|${position.percent}`, position);
    }
  }
  return [...seen.values()].sort(
    (a, b) => a.date.localeCompare(b.date) || a.holderKey.localeCompare(b.holderKey)
  );
}
function parseSsrCsv(table) {
  const all = table.sheets[0]?.rows ?? [];
  const header = findHeader(all, {
    isin: /^isin$/,
    name: /^name$/,
    date: /^date$/,
    percent: /^shortpercent$/
  });
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  const points = rows.map(
    (row, i) => ({
      isin: requireIsin(row[c.isin], `row ${i + 1}`),
      name: cellText(row[c.name]),
      point: {
        date: requireDate(row[c.date], `row ${i + 1}`),
        percent: requirePercent(row[c.percent], `row ${i + 1}`)
      }
    })
  );
  const issuers = issuersFromPoints(points, { thresholdPercent: NO_THRESHOLD });
  return snapshotOf("no-ssr-csv", issuers, rows.length, {
    namesHolders: false,
    aggregateThreshold: NO_THRESHOLD
  });
}
const norwaySsrJson = readerOf({ decode: decodeJson, parse: parseSsrJson });
const norwaySsrCsv = readerOf({ decode: csvDecoder("utf-8", "|"), parse: parseSsrCsv });
export {
  decodeJson,
  norwaySsrCsv,
  norwaySsrJson
};
