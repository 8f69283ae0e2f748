import { z } from "zod";
import { decodeText } from "./decode.js";
import { RegisterReadError } from "./errors.js";
import { fetchRegister } from "./fetch.js";
function knfPages(method) {
  return async (url, limits, dispatcher) => {
    const records = [];
    let total;
    let bytes = 0;
    for (let page = 0; total === void 0 || records.length < total; page++) {
      const form = `request=${encodeURIComponent(JSON.stringify(knfRequest(method, limits.pageSize, records.length)))}`;
      const fetched = await fetchRegister(url, {}, limits, dispatcher, { form });
      if (fetched.status !== "fetched") return fetched;
      bytes += fetched.bytes.byteLength;
      if (bytes > limits.maxBytes)
        throw new RegisterReadError("too-large", `the pages pass ${limits.maxBytes} bytes`);
      const reply = knfReply(fetched.bytes);
      if (reply === void 0) return fetched;
      if (total !== void 0 && reply.total !== total) {
        throw new RegisterReadError(
          "truncated",
          `the total moved from ${total} to ${reply.total} between pages`
        );
      }
      total = reply.total;
      if (reply.records.length === 0 && records.length < total) {
        throw new RegisterReadError(
          "truncated",
          `page ${page + 1} is empty at ${records.length} of ${total} records`
        );
      }
      records.push(...reply.records);
    }
    const joined = Buffer.from(JSON.stringify({ status: "success", total, records }));
    return { status: "fetched", bytes: joined, contentType: "application/json", validators: {} };
  };
}
function knfRequest(method, limit, offset) {
  return {
    cmd: "get",
    method,
    limit,
    offset,
    sort: [{ field: "POSITION_DATE", direction: "desc" }]
  };
}
const pageSchema = z.object({ total: z.number().int().min(0).optional(), records: z.array(z.unknown()) });
function knfReply(bytes) {
  let json;
  try {
    json = JSON.parse(decodeText(bytes, "utf-8"));
  } catch {
    return void 0;
  }
  const page = pageSchema.safeParse(json);
  if (!page.success) return void 0;
  return { total: page.data.total ?? page.data.records.length, records: page.data.records };
}
const FI_FORM = [
  "draw=1",
  "start=0",
  "lang=en",
  "exportOptions[columnData][positionHolder]=Position holder",
  "exportOptions[columnData][issuerName]=Name of the issuer",
  "exportOptions[columnData][isinCode]=ISIN",
  "exportOptions[columnData][netShortPositionInPercent]=Net short position (%)",
  "exportOptions[columnData][positionDate]=Date",
  "exportOptions[lang]=en"
].map((pair) => pair.split("=").map(encodeURIComponent).join("=")).join("&");
function dataTablesPost() {
  return (url, limits, dispatcher) => fetchRegister(url, {}, limits, dispatcher, {
    form: `${FI_FORM}&length=${limits.pageSize}`
  });
}
const REGISTER_REQUESTS = {
  "pl-knf-json-current": knfPages("Default"),
  "pl-knf-json-history": knfPages("RssHTable"),
  "fi-fsa-current": dataTablesPost()
};
export {
  REGISTER_REQUESTS,
  dataTablesPost,
  knfPages
};
