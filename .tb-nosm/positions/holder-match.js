import { holderKey } from "./holder-key.js";
function words(name) {
  return name.normalize("NFKC").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== "");
}
function holderQueryMatches(query, holderName) {
  const key = holderKey(query);
  if (key === "") return false;
  const parts = words(holderName);
  return parts.some((_, start) => parts.slice(start).join("").startsWith(key));
}
export {
  holderQueryMatches
};
