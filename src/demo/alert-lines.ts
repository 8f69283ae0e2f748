import { z } from 'zod';
import { LOOK_EMOJI } from '../channels/slack/lines.js';

/** The parts of a Slack payload the demo reads back; anything else in it is ignored. */
const slackPayloadSchema = z.object({
  text: z.string(),
  blocks: z
    .array(
      z.object({
        type: z.string(),
        text: z.object({ text: z.string() }).optional(),
        elements: z.array(z.object({ text: z.string().optional() })).optional(),
      }),
    )
    .optional(),
});

const EVENT_EMOJI = Object.values(LOOK_EMOJI);
const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/** `12:01:05`, in the machine's local time: the demo prints for the person watching it. */
export function clockTime(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Slack mrkdwn as a terminal shows it: entities decoded, bold markers dropped. */
export function plainFromMrkdwn(text: string): string {
  return text.replace(/\*/g, '').replace(/&(lt|gt|amp);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** One readable line per event a Slack payload carries (`Issuer: holder raised …`), else its headline. */
export function slackAlertLines(payload: unknown): string[] {
  const parsed = slackPayloadSchema.safeParse(payload);
  if (!parsed.success) return ['(a payload that is not a Slack message)'];
  const blocks = parsed.data.blocks ?? [];
  const header = blocks.find((block) => block.type === 'header')?.text?.text;
  const events = blocks
    .filter((block) => block.type === 'section')
    .flatMap((block) => (block.text?.text ?? '').split('\n'))
    .flatMap((line) => {
      const emoji = EVENT_EMOJI.find((e) => line.startsWith(`${e} `));
      return emoji ? [plainFromMrkdwn(line.slice(emoji.length + 1))] : [];
    });
  if (events.length === 0) return [plainFromMrkdwn(parsed.data.text.split('\n')[0] ?? '')];
  const issuer = header ? `${plainFromMrkdwn(header)}: ` : '';
  // Lines that share a disclosure date leave it to the context line: the printed line takes it back.
  const context = blocks.find((block) => block.type === 'context')?.elements?.[0]?.text ?? '';
  const date = / · disclosed (\S+)$/.exec(context)?.[1];
  return events.map((event) => `${issuer}${date ? withDate(event, date) : event}`);
}

/** `… (+0.13 pp) · 2026-01-06`, before the thresholds crossed when the line names some. */
function withDate(line: string, date: string): string {
  const crossed = line.lastIndexOf(' · crossed ');
  return crossed < 0 ? `${line} · ${date}` : `${line.slice(0, crossed)} · ${date}${line.slice(crossed)}`;
}

/** Which demo folder an email belongs in: digests apart from immediate alerts. */
export type MailKind = 'email' | 'digest';

/** The demo's printed line for one delivered message (time, channel kind, what it said), or a chaos phase. */
export function alertLine(at: Date, kind: 'slack' | MailKind | 'chaos', text: string): string {
  return `${clockTime(at)} ${kind.padEnd(6)} ${text}`;
}
