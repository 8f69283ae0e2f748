const PERMANENT_CODES = /* @__PURE__ */ new Set(["ENOTFOUND", "ERR_INVALID_URL", "UND_ERR_INVALID_ARG"]);
function isUnreachableUrl(code) {
  return code !== void 0 && PERMANENT_CODES.has(code);
}
export {
  isUnreachableUrl
};
