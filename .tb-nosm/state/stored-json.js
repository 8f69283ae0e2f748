function parseStored(raw, schema) {
  return schema.safeParse(jsonOrUndefined(raw));
}
function readStored(raw, schema) {
  return parseStored(raw, schema).data;
}
function jsonOrUndefined(raw) {
  if (raw === null || raw === void 0) return void 0;
  try {
    return JSON.parse(raw);
  } catch {
    return void 0;
  }
}
export {
  parseStored,
  readStored
};
