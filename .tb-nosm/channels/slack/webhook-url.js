const LOCAL_HOSTS = /* @__PURE__ */ new Set(["127.0.0.1", "localhost", "[::1]"]);
function checkWebhookUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: "is not a URL" };
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
    return { ok: false, problem: "must use https (http only for 127.0.0.1 or localhost)" };
  }
  if (url.username || url.password) return { ok: false, problem: "must not carry credentials" };
  if (url.pathname === "/" || url.pathname === "") return { ok: false, problem: "has no path" };
  return { ok: true, description: `webhook ${url.protocol}//${url.host}/[redacted]` };
}
export {
  checkWebhookUrl
};
