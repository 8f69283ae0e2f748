import { parentPort } from "node:worker_threads";
import { parseRequestSchema, readChecked } from "./parse-request.js";
parentPort?.on("message", (message) => {
  const request = parseRequestSchema.safeParse(message);
  parentPort?.postMessage(
    request.success ? readChecked(request.data) : { status: "not-read", reason: "unparseable", detail: "the parser was handed no file" }
  );
});
