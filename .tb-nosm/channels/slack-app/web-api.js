import { request } from "undici";
import { z } from "zod";
const apiAnswer = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional(),
  ts: z.string().optional(),
  user: z.looseObject({ id: z.string() }).optional(),
  channel: z.union([z.string(), z.looseObject({ id: z.string() })]).optional()
});
const MAX_BODY_BYTES = 64 * 1024;
const FORM_METHODS = /* @__PURE__ */ new Set(["users.lookupByEmail"]);
function encode(method, args) {
  if (!FORM_METHODS.has(method))
    return { body: JSON.stringify(args), type: "application/json; charset=utf-8" };
  const fields = Object.entries(args).filter(
    (entry) => typeof entry[1] === "string"
  );
  return { body: new URLSearchParams(fields).toString(), type: "application/x-www-form-urlencoded" };
}
async function callWebApi(at, method, args) {
  const { body, type } = encode(method, args);
  const response = await request(`${at.apiUrl}/${method}`, {
    method: "POST",
    body,
    headers: {
      authorization: `Bearer ${at.token}`,
      "content-type": type,
      "user-agent": "shortwatch"
    },
    dispatcher: at.agent
  });
  const text = await readCapped(response.body);
  const scopes = response.headers["x-oauth-scopes"];
  return {
    status: response.statusCode,
    retryAfter: response.headers["retry-after"],
    date: response.headers.date,
    scopes: typeof scopes === "string" ? scopes : void 0,
    body: parseAnswer(text)
  };
}
function parseAnswer(text) {
  try {
    return apiAnswer.safeParse(JSON.parse(text)).data;
  } catch {
    return void 0;
  }
}
async function readCapped(body) {
  const chunks = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) break;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
export {
  callWebApi
};
