const BAD_ROWS = {
  issuers: { svc_issuer_id: 4711, name: null },
  positions: { date: "2026-01-05", value: "0.51", position_holder: "Schema Breaker LLP" }
};
function schemaBreaking(normal, operation) {
  if (normal.status !== 200) return { data: "unavailable", last_updated: 0 };
  const text = JSON.stringify(normal.body, (key, value) => {
    if (key === "data" && Array.isArray(value) && value.length === 0) return [BAD_ROWS[operation]];
    if (key === "value" && typeof value === "number") return String(value);
    if (key === "svc_issuer_id" && typeof value === "string" && operation === "issuers") return value.length;
    return value;
  });
  return JSON.parse(text);
}
export {
  schemaBreaking
};
