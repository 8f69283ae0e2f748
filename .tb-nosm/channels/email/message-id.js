import { createHash } from "node:crypto";
const FALLBACK_MESSAGE_ID_DOMAIN = "shortwatch.invalid";
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const LOCAL_MAX = 200;
function senderDomain(from) {
  const bracketed = /<([^<>]*)>\s*$/.exec(from);
  const address = (bracketed?.[1] ?? from).trim();
  const domain = address.slice(address.lastIndexOf("@") + 1);
  return address.includes("@") && HOST_NAME.test(domain) ? domain : FALLBACK_MESSAGE_ID_DOMAIN;
}
function deliveryMessageId(deliveryId, from) {
  const plain = DOT_ATOM.test(deliveryId) && deliveryId.length <= LOCAL_MAX;
  const local = plain ? deliveryId : `sha256.${createHash("sha256").update(deliveryId).digest("hex")}`;
  return `<${local}@${senderDomain(from)}>`;
}
export {
  FALLBACK_MESSAGE_ID_DOMAIN,
  deliveryMessageId,
  senderDomain
};
