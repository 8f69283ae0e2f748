import { z } from "zod";
import { positionEventSchema } from "../../positions/schemas.js";
import { escapeMrkdwn } from "../slack/escape.js";
import { SLACK_LIMITS } from "../slack/index.js";
function isCorrection(event) {
  return event.hold !== void 0 || event.aggregate?.kind === "aggregate-revised";
}
const toldRecordSchema = z.object({
  ts: z.string(),
  thread: z.string(),
  events: z.array(positionEventSchema)
});
function parseToldRecord(text) {
  if (text === void 0) return void 0;
  try {
    return toldRecordSchema.safeParse(JSON.parse(text)).data;
  } catch {
    return void 0;
  }
}
function mergedEvents(earlier, later) {
  const shown = new Set(earlier.map((event) => event.id));
  const added = later.filter((event) => !shown.has(event.id));
  return [...earlier, ...added].sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
}
function holdersOf(events) {
  const names = [...new Set(events.map((event) => event.holder))];
  return escapeMrkdwn(names.join(", ")).slice(0, 500);
}
function withNote(payload, note) {
  const text = `${payload.text}
${note}`.slice(0, SLACK_LIMITS.fallbackText);
  if (payload.blocks.length >= SLACK_LIMITS.blocks) return { ...payload, text };
  return {
    text,
    blocks: [...payload.blocks, { type: "context", elements: [{ type: "mrkdwn", text: note }] }]
  };
}
function editNote(corrections, at) {
  return `:pencil2: Edited ${at}: corrected with the later changes of ${holdersOf(corrections)}.`;
}
function replyNote(corrections, ts) {
  return `:leftwards_arrow_with_hook: Corrects the earlier message (ts ${escapeMrkdwn(ts)}) about ${holdersOf(corrections)}, which Slack would not let us edit.`;
}
export {
  editNote,
  isCorrection,
  mergedEvents,
  parseToldRecord,
  replyNote,
  toldRecordSchema,
  withNote
};
