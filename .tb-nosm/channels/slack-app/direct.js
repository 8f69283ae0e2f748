import { createHash } from "node:crypto";
import { DAY_MS } from "../../time/units.js";
import { DeliveryError } from "../delivery-error.js";
const DIRECT_MEMORY_MS = DAY_MS;
function directKey(email) {
  return `dm:${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 24)}`;
}
function missingField(method, email) {
  return new DeliveryError(`Slack ${method} answered ok without an id for ${email}`, {
    outcome: "retry",
    code: "invalid_answer"
  });
}
async function directConversation(email, deps) {
  const key = directKey(email);
  const known = await deps.memory.get(key);
  if (known !== void 0) return known;
  const where = ` (direct message to ${email})`;
  const found = await deps.call("users.lookupByEmail", { email }, where);
  const user = found.body?.user?.id;
  if (user === void 0) throw missingField("users.lookupByEmail", email);
  const opened = await deps.call("conversations.open", { users: user }, where);
  const channel = opened.body?.channel;
  const id = typeof channel === "object" ? channel.id : void 0;
  if (id === void 0) throw missingField("conversations.open", email);
  await deps.memory.set(key, id, DIRECT_MEMORY_MS);
  return id;
}
export {
  DIRECT_MEMORY_MS,
  directConversation
};
