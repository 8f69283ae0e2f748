import { isDeliveryError } from "../delivery-error.js";
import { renderSlack } from "../slack/render.js";
import { formatInstant, zonedDay } from "../time.js";
import { broadcasts } from "./broadcast.js";
import { editNote, mergedEvents, replyNote, withNote } from "./correction.js";
import { memoryTtlMs, threadDay, threadKey, toldKey } from "./thread.js";
const EDIT_REFUSED = /* @__PURE__ */ new Set(["edit_window_closed", "message_not_found", "cant_update_message"]);
function isEditRefused(error) {
  return isDeliveryError(error) && error.code !== void 0 && EDIT_REFUSED.has(error.code);
}
async function remember(deps, step, record) {
  const ttl = memoryTtlMs(record.events, deps.now().getTime());
  const holders = new Set(record.events.map((event) => event.holderKey));
  for (const holder of holders)
    await deps.memory.set(toldKey(step.conversation, step.issuer.id, holder), JSON.stringify(record), ttl);
}
function metadataOf(tag) {
  if (tag.deliveryId === void 0) return {};
  return { metadata: { event_type: "shortwatch_delivery", event_payload: { delivery_id: tag.deliveryId } } };
}
function threadArgs(deps, reply) {
  if (reply === void 0) return {};
  const broadcast = broadcasts(reply.events, deps.broadcast) ? { reply_broadcast: true } : {};
  return { thread_ts: reply.thread, ...broadcast };
}
async function post(deps, conversation, payload, where, reply) {
  const args = { channel: conversation, ...payload, ...threadArgs(deps, reply), ...metadataOf(deps) };
  return (await deps.call("chat.postMessage", args, where)).body?.ts;
}
async function issuerStep(deps, step, where) {
  const day = threadDay(step.events, deps.timezone) ?? zonedDay(deps.now().toISOString(), deps.timezone);
  const key = threadKey(step.conversation, step.issuer.id, day ?? "none");
  const parent = await deps.memory.get(key);
  const reply = parent === void 0 ? void 0 : { thread: parent, events: step.events };
  const ts = await post(deps, step.conversation, step.payload, where, reply);
  if (ts === void 0) return;
  if (parent === void 0) await deps.memory.set(key, ts, memoryTtlMs(step.events, deps.now().getTime()));
  if (step.parts === 1) await remember(deps, step, { ts, thread: parent ?? ts, events: step.events });
}
function render(deps, issuer, events) {
  return renderSlack({ type: "events", issuer, events }, { timezone: deps.timezone });
}
async function editStep(deps, step, where) {
  const { record, corrections, conversation } = step;
  const merged = mergedEvents(record.events, corrections);
  const [edited, ...more] = render(deps, step.issuer, merged);
  if (edited !== void 0 && more.length === 0) {
    const note = editNote(corrections, formatInstant(deps.now().toISOString(), deps.timezone));
    try {
      await deps.call(
        "chat.update",
        { channel: conversation, ts: record.ts, ...withNote(edited, note) },
        where
      );
      await remember(deps, step, { ...record, events: merged });
      return;
    } catch (error) {
      if (!isEditRefused(error)) throw error;
    }
  }
  const replies = render(deps, step.issuer, corrections);
  let first;
  for (const [index, payload] of replies.entries()) {
    const body = index === 0 ? withNote(payload, replyNote(corrections, record.ts)) : payload;
    const ts = await post(deps, conversation, body, where, { thread: record.thread, events: corrections });
    first ??= ts;
  }
  if (first !== void 0 && replies.length === 1)
    await remember(deps, step, { ts: first, thread: record.thread, events: corrections });
}
async function runStep(deps, step, where) {
  switch (step.kind) {
    case "plain":
      await post(deps, step.conversation, step.payload, where);
      return;
    case "issuer":
      await issuerStep(deps, step, where);
      return;
    case "edit":
      await editStep(deps, step, where);
      return;
  }
}
export {
  runStep
};
