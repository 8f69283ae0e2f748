function parseCookies(header) {
  const cookies = /* @__PURE__ */ new Map();
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}
function consoleCookie(name, value, options) {
  const age = options.maxAgeSeconds === void 0 ? "" : `; Max-Age=${options.maxAgeSeconds}`;
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict${options.secure ? "; Secure" : ""}${age}`;
}
export {
  consoleCookie,
  parseCookies
};
