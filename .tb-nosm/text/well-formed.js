const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
function wellFormed(text) {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}
export {
  wellFormed
};
