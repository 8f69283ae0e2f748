import { z } from "zod";
import { decodeCsv, decodeText } from "../decode.js";
import { RegisterReadError } from "../errors.js";
import { namedRows } from "../named-table.js";
import { issuersFromNotifications } from "../notifications.js";
import { readerOf } from "../reader.js";
import { snapshotOf } from "../snapshot.js";
import { requireDate, requireIsin, requirePercent } from "../values.js";
import { decodeJson } from "./norway.js";
const LAYOUT = {
  header: {
    holder: /^position holder$/,
    issuer: /^name of the issuer$/,
    isin: /^isin$/,
    percent: /^net short position( \(%\))?$/,
    date: /^(position )?date$/
  }
};
const rowSchema = z.object({
  positionHolder: z.string(),
  issuerName: z.string(),
  isinCode: z.string(),
  netShortPositionInPercent: z.union([z.number(), z.string()]),
  positionDate: z.string()
});
const envelopeSchema = z.object({ data: z.array(rowSchema) });
function decodeFinFsa(bytes) {
  const text = decodeText(bytes, "utf-8");
  if (!/^\s*[{[]/.test(text)) return namedRows(decodeCsv(text, ";").sheets[0]?.rows ?? [], LAYOUT);
  const json = decodeJson(bytes);
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    throw new RegisterReadError(
      "wrong-header",
      `not the DataTables shape: ${parsed.error.issues[0]?.message}`
    );
  }
  return parsed.data.data.map((row, i) => {
    const where = `row ${i + 1}`;
    const percent = row.netShortPositionInPercent;
    return {
      isin: requireIsin(row.isinCode, where),
      issuer: row.issuerName.trim(),
      holder: row.positionHolder,
      percent: requirePercent(percent, where),
      date: requireDate(row.positionDate, where)
    };
  });
}
const finFsaCurrent = readerOf({
  decode: decodeFinFsa,
  parse: (rows) => snapshotOf("fi-fsa-current", issuersFromNotifications(rows, false), rows.length)
});
export {
  finFsaCurrent
};
