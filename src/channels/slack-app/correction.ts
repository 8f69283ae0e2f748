import { z } from 'zod';
import { positionEventSchema } from '../../positions/schemas.js';
import type { PositionEvent } from '../../positions/types.js';
import type { SlackPayload } from '../slack/blocks.js';
import { escapeMrkdwn } from '../slack/escape.js';
import { SLACK_LIMITS } from '../slack/index.js';

/**
 * Whether an event corrects what a channel may already have been told of its holder. The project has two
 * such events and no other: a change carrying a flap `hold` (the holder crossed 0.5% back within the flap
 * window, so the crossing told a moment ago is already undone: positions/threshold-story.ts), and an
 * aggregate `aggregate-revised` (the register changed a value it had published for a date). Every other
 * event is news, told in its issuer's thread.
 */
export function isCorrection(event: PositionEvent): boolean {
  return event.hold !== undefined || event.aggregate?.kind === 'aggregate-revised';
}

/**
 * What a conversation keeps of the last message that told a holder: its ts, its thread's parent (its own
 * ts for a parent) and the events it showed, which an edit shows again with the corrections.
 */
export const toldRecordSchema = z.object({
  ts: z.string(),
  thread: z.string(),
  events: z.array(positionEventSchema),
});
/** A stored {@link toldRecordSchema}. */
export type ToldRecord = z.infer<typeof toldRecordSchema>;

/** Reads a stored record; anything that is not one is no record (the message is then not edited). */
export function parseToldRecord(text: string | undefined): ToldRecord | undefined {
  if (text === undefined) return undefined;
  try {
    return toldRecordSchema.safeParse(JSON.parse(text)).data;
  } catch {
    return undefined;
  }
}

/**
 * The events an edited message shows: those it showed, then the corrections it did not, by detection: the
 * message then tells the whole run (fell below, back above) as a held flap's one message would.
 */
export function mergedEvents(
  earlier: readonly PositionEvent[],
  later: readonly PositionEvent[],
): PositionEvent[] {
  const shown = new Set(earlier.map((event) => event.id));
  const added = later.filter((event) => !shown.has(event.id));
  return [...earlier, ...added].sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
}

/** The holders a correction is about, as shown (escaped), for the note that says what changed. */
function holdersOf(events: readonly PositionEvent[]): string {
  const names = [...new Set(events.map((event) => event.holder))];
  return escapeMrkdwn(names.join(', ')).slice(0, 500);
}

/**
 * A payload with a note as its last block (and at the end of its fallback text): what an edit changed, or
 * what a reply corrects. A payload with no room for one more block keeps its blocks and notes its text.
 */
export function withNote(payload: SlackPayload, note: string): SlackPayload {
  const text = `${payload.text}\n${note}`.slice(0, SLACK_LIMITS.fallbackText);
  if (payload.blocks.length >= SLACK_LIMITS.blocks) return { ...payload, text };
  return {
    text,
    blocks: [...payload.blocks, { type: 'context', elements: [{ type: 'mrkdwn', text: note }] }],
  };
}

/** The note of an edited message: which holders' later changes it now includes, and when. */
export function editNote(corrections: readonly PositionEvent[], at: string): string {
  return `:pencil2: Edited ${at}: corrected with the later changes of ${holdersOf(corrections)}.`;
}

/** The note of a correction posted as a reply because the message it corrects could not be edited. */
export function replyNote(corrections: readonly PositionEvent[], ts: string): string {
  return `:leftwards_arrow_with_hook: Corrects the earlier message (ts ${escapeMrkdwn(ts)}) about ${holdersOf(corrections)}, which Slack would not let us edit.`;
}
