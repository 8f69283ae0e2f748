import { isPaired } from "../config/schema/sources.js";
import { isRegisterReadError } from "./errors.js";
import { fetchRegister } from "./fetch.js";
import { readIsolated } from "./isolated-read.js";
import { REGISTER_REQUESTS } from "./paged-fetch.js";
import { REGISTER_PAIRS } from "./registers.js";
async function readSource(source, last, context = {}) {
  if (source.aggregateUrl !== void 0 && isPaired(source.kind))
    return readPair(
      source,
      { pair: REGISTER_PAIRS[source.kind], aggregateUrl: source.aggregateUrl },
      last,
      context
    );
  const outcome = await readFile(source, { url: source.url, kind: source.kind, last }, context);
  if (outcome.status !== "read") return outcome;
  return { status: "read", snapshot: outcome.snapshot, last: outcome.file };
}
async function readPair(source, { pair, aggregateUrl }, last, context) {
  const files = [
    { url: source.url, kind: source.kind, last },
    { url: aggregateUrl, kind: pair.companion, last: last?.companion, label: "the aggregate file" }
  ];
  let [main, companion] = await Promise.all(files.map((file) => readFile(source, file, context)));
  if (main?.status === "not-modified" && companion?.status === "not-modified") return main;
  if (main?.status === "not-modified") main = await readFile(source, whole(files[0]), context);
  if (companion?.status === "not-modified") companion = await readFile(source, whole(files[1]), context);
  if (main?.status !== "read") return notReadOf(main);
  if (companion?.status !== "read") return notReadOf(companion);
  return {
    status: "read",
    snapshot: pair.join(main.snapshot, companion.snapshot, context.previous),
    last: { ...main.file, companion: companion.file }
  };
}
function whole(file) {
  return { ...file, whole: true };
}
async function readFile(source, file, { dispatcher, now }) {
  const labelled = (detail) => file.label === void 0 ? detail : `${file.label}: ${detail}`;
  let fetched;
  try {
    const validators = file.whole ? {} : file.last?.validators ?? {};
    const post = REGISTER_REQUESTS[file.kind];
    fetched = post === void 0 ? await fetchRegister(file.url, validators, source.fetch, dispatcher) : await post(file.url, source.fetch, dispatcher);
  } catch (error) {
    if (isRegisterReadError(error))
      return { status: "not-read", reason: error.reason, detail: labelled(error.message) };
    throw error;
  }
  if (fetched.status === "not-modified") return fetched;
  const outcome = await readIsolated(
    {
      ...source.fetch,
      ...source.parse,
      kind: file.kind,
      bytes: fetched.bytes,
      lastRows: file.last?.rows,
      mayEmpty: pastNamedHolders(source, now)
    },
    source.parse
  );
  if (outcome.status === "not-read") return { ...outcome, detail: labelled(outcome.detail) };
  return {
    status: "read",
    snapshot: outcome.snapshot,
    file: { validators: fetched.validators, rows: outcome.snapshot.rows }
  };
}
function notReadOf(outcome) {
  if (outcome?.status === "not-read") return outcome;
  return { status: "not-read", reason: "http-status", detail: "HTTP 304 to an unconditional request" };
}
function pastNamedHolders(source, now) {
  const until = source.regimeBoundary.namedHoldersUntil;
  return until !== void 0 && now !== void 0 && now.toISOString().slice(0, 10) > until;
}
export {
  readSource
};
