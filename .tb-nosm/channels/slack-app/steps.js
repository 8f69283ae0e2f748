import { renderSlack } from "../slack/render.js";
import { isCorrection, parseToldRecord } from "./correction.js";
import { toldKey } from "./thread.js";
function groupsOf(message) {
  if (message.type === "events") return [{ issuer: message.issuer, events: message.events }];
  if (message.type === "batch") return message.groups;
  return [];
}
async function issuerSteps(conversation, group, memory, options) {
  const edits = /* @__PURE__ */ new Map();
  const news = [];
  for (const event of group.events) {
    const record = isCorrection(event) ? parseToldRecord(await memory.get(toldKey(conversation, group.issuer.id, event.holderKey))) : void 0;
    if (record === void 0) {
      news.push(event);
      continue;
    }
    const edit = edits.get(record.ts) ?? { record, corrections: [] };
    edit.corrections.push(event);
    edits.set(record.ts, edit);
  }
  const steps = [...edits.values()].map((edit) => ({
    kind: "edit",
    conversation,
    issuer: group.issuer,
    ...edit
  }));
  if (news.length === 0) return steps;
  const payloads = renderSlack({ type: "events", issuer: group.issuer, events: news }, options);
  for (const payload of payloads) {
    steps.push({
      kind: "issuer",
      conversation,
      issuer: group.issuer,
      events: news,
      payload,
      parts: payloads.length
    });
  }
  return steps;
}
async function planSteps(message, conversations, memory, options) {
  const groups = groupsOf(message);
  const steps = [];
  for (const conversation of conversations) {
    if (groups.length === 0) {
      for (const payload of renderSlack(message, options))
        steps.push({ kind: "plain", conversation, payload });
      continue;
    }
    for (const group of groups) steps.push(...await issuerSteps(conversation, group, memory, options));
  }
  return steps;
}
export {
  planSteps
};
