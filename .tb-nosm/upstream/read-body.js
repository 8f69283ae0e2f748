async function readLimited(body, limit) {
  const chunks = [];
  let total = 0;
  const source = body;
  for await (const chunk of source) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > limit) {
      body.destroy();
      return { complete: false };
    }
    chunks.push(buffer);
  }
  return { complete: true, bytes: Buffer.concat(chunks, total) };
}
function declaresTooLarge(contentLength, limit) {
  if (typeof contentLength !== "string" || !/^\d+$/.test(contentLength.trim())) return false;
  return Number(contentLength) > limit;
}
export {
  declaresTooLarge,
  readLimited
};
