const HOME = "/";
function unsafe(text) {
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 32 || code === 127 || char === "\\") return true;
  }
  return false;
}
function plainPath(text) {
  return text.startsWith("/") && !text.startsWith("//") && !unsafe(text);
}
function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return void 0;
  }
}
function safeNext(next) {
  if (next === null || next === void 0) return HOME;
  let spelling = next;
  for (let depth = 0; depth < 4 && spelling !== void 0; depth++) {
    if (!plainPath(spelling)) return HOME;
    const again = decoded(spelling);
    if (again === spelling) break;
    spelling = again;
  }
  if (spelling === void 0) return HOME;
  const base = "http://console.invalid";
  const url = new URL(next, base);
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : HOME;
}
export {
  safeNext
};
