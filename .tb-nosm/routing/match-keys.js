import { holderKey } from "../positions/holder-key.js";
function issuerNameKey(name) {
  return name.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}
function issuerMatches(entry, issuer) {
  if (entry === issuer.id) return true;
  const key = issuerNameKey(entry);
  return key !== "" && key === issuerNameKey(issuer.name);
}
function holderMatches(entry, eventHolderKey) {
  const key = holderKey(entry);
  return key !== "" && eventHolderKey.startsWith(key);
}
export {
  holderMatches,
  issuerMatches,
  issuerNameKey
};
