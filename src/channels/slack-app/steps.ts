import type { PositionEvent } from '../../positions/types.js';
import type { SlackPayload } from '../slack/blocks.js';
import { renderSlack, type SlackRenderOptions } from '../slack/render.js';
import type { ChannelMemory, IssuerEvents, IssuerRef, Message } from '../types.js';
import { isCorrection, parseToldRecord, type ToldRecord } from './correction.js';
import { toldKey } from './thread.js';

/**
 * One call-sized step of a delivery, what the part counter of `sendInParts` counts: a retry resumes
 * after the steps already done, and plans the same steps again (an edit that went through is planned
 * again as the same edit, which changes nothing).
 */
export type Step =
  /** A payload of a message with no issuer thread (a notice, a digest, a test): posted to the conversation. */
  | { kind: 'plain'; conversation: string; payload: SlackPayload }
  /** A part of an issuer's message (of `parts`): the day's parent if the thread has none yet, else a reply. */
  | {
      kind: 'issuer';
      conversation: string;
      issuer: IssuerRef;
      events: PositionEvent[];
      payload: SlackPayload;
      parts: number;
    }
  /** Corrections of holders an earlier message (`record`) told: that message edited in place. */
  | {
      kind: 'edit';
      conversation: string;
      issuer: IssuerRef;
      record: ToldRecord;
      corrections: PositionEvent[];
    };

/** The issuer groups of an events or batch message, one issuer each. */
function groupsOf(message: Message): IssuerEvents[] {
  if (message.type === 'events') return [{ issuer: message.issuer, events: message.events }];
  if (message.type === 'batch') return message.groups;
  return [];
}

/** The steps of one issuer's events in one conversation: edits of recent messages first, then the news. */
async function issuerSteps(
  conversation: string,
  group: IssuerEvents,
  memory: ChannelMemory,
  options: SlackRenderOptions,
): Promise<Step[]> {
  const edits = new Map<string, { record: ToldRecord; corrections: PositionEvent[] }>();
  const news: PositionEvent[] = [];
  for (const event of group.events) {
    const record = isCorrection(event)
      ? parseToldRecord(await memory.get(toldKey(conversation, group.issuer.id, event.holderKey)))
      : undefined;
    if (record === undefined) {
      news.push(event);
      continue;
    }
    const edit = edits.get(record.ts) ?? { record, corrections: [] };
    edit.corrections.push(event);
    edits.set(record.ts, edit);
  }
  const steps: Step[] = [...edits.values()].map((edit) => ({
    kind: 'edit' as const,
    conversation,
    issuer: group.issuer,
    ...edit,
  }));
  if (news.length === 0) return steps;
  const payloads = renderSlack({ type: 'events', issuer: group.issuer, events: news }, options);
  for (const payload of payloads) {
    steps.push({
      kind: 'issuer',
      conversation,
      issuer: group.issuer,
      events: news,
      payload,
      parts: payloads.length,
    });
  }
  return steps;
}

/**
 * The steps of a message to every conversation: an events or batch message is one message per issuer
 * (each in its own thread), anything else the payloads the webhook kind would post.
 */
export async function planSteps(
  message: Message,
  conversations: readonly string[],
  memory: ChannelMemory,
  options: SlackRenderOptions,
): Promise<Step[]> {
  const groups = groupsOf(message);
  const steps: Step[] = [];
  for (const conversation of conversations) {
    if (groups.length === 0) {
      for (const payload of renderSlack(message, options))
        steps.push({ kind: 'plain', conversation, payload });
      continue;
    }
    for (const group of groups) steps.push(...(await issuerSteps(conversation, group, memory, options)));
  }
  return steps;
}
