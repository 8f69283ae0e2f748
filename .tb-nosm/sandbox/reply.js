function jsonReply(status, value, headers = {}) {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}
const CHUNK_ROWS = 512;
function paddingParts(operation) {
  if (operation === "issuers") {
    return {
      head: '{"data":[',
      row: '{"svc_issuer_id":"ISS-9999","name":"Padding Holdings plc"}',
      tail: '],"last_updated":null}'
    };
  }
  return {
    head: '{"issuer":{"svc_issuer_id":"ISS-9999","name":"Padding Holdings plc"},"status":"active","data":[',
    row: '{"date":"2026-01-05","value":0.51,"position_holder":"Padding Capital LLP"}',
    tail: '],"last_updated":null}'
  };
}
async function writeChunk(res, chunk) {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  await new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
  return !res.destroyed;
}
async function sendPadded(res, padded) {
  const { head, row, tail } = paddingParts(padded.operation);
  const room = Math.max(0, padded.bytes - head.length - tail.length);
  const rows = room >= row.length ? Math.floor((room + 1) / (row.length + 1)) : 0;
  const used = rows === 0 ? 0 : rows * (row.length + 1) - 1;
  res.setHeader("content-length", head.length + used + (room - used) + tail.length);
  if (!await writeChunk(res, head)) return;
  for (let sent = 0; sent < rows; sent += CHUNK_ROWS) {
    const count = Math.min(CHUNK_ROWS, rows - sent);
    const chunk = (sent === 0 ? "" : ",") + Array.from({ length: count }, () => row).join(",");
    if (!await writeChunk(res, chunk)) return;
  }
  if (!await writeChunk(res, " ".repeat(room - used))) return;
  res.end(tail);
}
async function sendReply(res, reply) {
  if (res.destroyed) return;
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if (typeof reply.body === "string") {
    res.setHeader("content-length", Buffer.byteLength(reply.body));
    res.end(reply.body);
    return;
  }
  await sendPadded(res, reply.body);
}
export {
  jsonReply,
  sendReply
};
