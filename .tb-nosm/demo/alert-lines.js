import { z } from "zod";
import { LOOK_EMOJI } from "../channels/slack/lines.js";
const slackPayloadSchema = z.object({
  text: z.string(),
  blocks: z.array(
    z.object({
      type: z.string(),
      text: z.object({ text: z.string() }).optional(),
      elements: z.array(z.object({ text: z.string().optional() })).optional()
    })
  ).optional()
});
const EVENT_EMOJI = Object.values(LOOK_EMOJI);
const ENTITIES = { "&lt;": "<", "&gt;": ">", "&amp;": "&" };
function clockTime(at) {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
}
function plainFromMrkdwn(text) {
  return text.replace(/\*/g, "").replace(/&(lt|gt|amp);/g, (entity) => ENTITIES[entity] ?? entity);
}
function slackAlertLines(payload) {
  const parsed = slackPayloadSchema.safeParse(payload);
  if (!parsed.success) return ["(a payload that is not a Slack message)"];
  const blocks = parsed.data.blocks ?? [];
  const header = blocks.find((block) => block.type === "header")?.text?.text;
  const events = blocks.filter((block) => block.type === "section").flatMap((block) => (block.text?.text ?? "").split("\n")).flatMap((line) => {
    const emoji = EVENT_EMOJI.find((e) => line.startsWith(`${e} `));
    return emoji ? [plainFromMrkdwn(line.slice(emoji.length + 1))] : [];
  });
  if (events.length === 0) return [plainFromMrkdwn(parsed.data.text.split("\n")[0] ?? "")];
  const issuer = header ? `${plainFromMrkdwn(header)}: ` : "";
  const context = blocks.find((block) => block.type === "context")?.elements?.[0]?.text ?? "";
  const date = / · disclosed (\S+)$/.exec(context)?.[1];
  return events.map((event) => `${issuer}${date ? withDate(event, date) : event}`);
}
function withDate(line, date) {
  const crossed = line.lastIndexOf(" \xB7 crossed ");
  return crossed < 0 ? `${line} \xB7 ${date}` : `${line.slice(0, crossed)} \xB7 ${date}${line.slice(crossed)}`;
}
function alertLine(at, kind, text) {
  return `${clockTime(at)} ${kind.padEnd(6)} ${text}`;
}
export {
  alertLine,
  clockTime,
  plainFromMrkdwn,
  slackAlertLines
};
