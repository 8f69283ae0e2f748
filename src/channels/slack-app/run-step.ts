import type { PositionEvent } from '../../positions/types.js';
import { isDeliveryError } from '../delivery-error.js';
import type { SlackPayload } from '../slack/blocks.js';
import { renderSlack } from '../slack/render.js';
import { formatInstant, zonedDay } from '../time.js';
import type { ChannelMemory, IssuerRef } from '../types.js';
import { type BroadcastRule, broadcasts } from './broadcast.js';
import { editNote, mergedEvents, replyNote, type ToldRecord, withNote } from './correction.js';
import type { Step } from './steps.js';
import { memoryTtlMs, threadDay, threadKey, toldKey } from './thread.js';
import type { WebApiAnswer } from './web-api.js';

/** What a step needs: the gated Web API call, the channel's memory, clock, zone and `broadcast` rule. */
export interface StepDeps {
  call: (method: string, args: Record<string, unknown>, where: string) => Promise<WebApiAnswer>;
  memory: ChannelMemory;
  now: () => Date;
  timezone: string;
  broadcast: BroadcastRule | undefined;
}

/**
 * The delivery a post belongs to, carried as Slack message metadata (`event_type` `shortwatch_delivery`):
 * the Web API takes no idempotency key, so this id (the record's `delivery_id`, the same on every attempt)
 * is how a reader of the channel's history tells a repeat from news.
 */
export interface DeliveryTag {
  deliveryId: string | undefined;
}

// chat.update's refusals that no retry changes: the message is too old to edit, gone, or not ours.
const EDIT_REFUSED = new Set(['edit_window_closed', 'message_not_found', 'cant_update_message']);

function isEditRefused(error: unknown): boolean {
  return isDeliveryError(error) && error.code !== undefined && EDIT_REFUSED.has(error.code);
}

/** Remembers, for each holder of `events`, that `record` is the last message that told them. */
async function remember(
  deps: StepDeps,
  step: { conversation: string; issuer: IssuerRef },
  record: ToldRecord,
): Promise<void> {
  const ttl = memoryTtlMs(record.events, deps.now().getTime());
  const holders = new Set(record.events.map((event) => event.holderKey));
  for (const holder of holders)
    await deps.memory.set(toldKey(step.conversation, step.issuer.id, holder), JSON.stringify(record), ttl);
}

function metadataOf(tag: DeliveryTag): Record<string, unknown> {
  if (tag.deliveryId === undefined) return {};
  return { metadata: { event_type: 'shortwatch_delivery', event_payload: { delivery_id: tag.deliveryId } } };
}

/** Where a post goes in its conversation: a thread's parent to reply to, and whether the reply is broadcast. */
interface InThread {
  thread: string;
  events: readonly PositionEvent[];
}

function threadArgs(deps: StepDeps, reply: InThread | undefined): Record<string, unknown> {
  if (reply === undefined) return {};
  // `reply_broadcast` shows the reply in the conversation too: a move the channel set as worth it.
  const broadcast = broadcasts(reply.events, deps.broadcast) ? { reply_broadcast: true } : {};
  return { thread_ts: reply.thread, ...broadcast };
}

async function post(
  deps: StepDeps & DeliveryTag,
  conversation: string,
  payload: SlackPayload,
  where: string,
  reply?: InThread,
): Promise<string | undefined> {
  const args = { channel: conversation, ...payload, ...threadArgs(deps, reply), ...metadataOf(deps) };
  return (await deps.call('chat.postMessage', args, where)).body?.ts;
}

/** Part of an issuer's message: the parent of the issuer's thread of the day, or a reply in it. */
async function issuerStep(
  deps: StepDeps & DeliveryTag,
  step: Extract<Step, { kind: 'issuer' }>,
  where: string,
) {
  const day = threadDay(step.events, deps.timezone) ?? zonedDay(deps.now().toISOString(), deps.timezone);
  const key = threadKey(step.conversation, step.issuer.id, day ?? 'none');
  const parent = await deps.memory.get(key);
  const reply = parent === undefined ? undefined : { thread: parent, events: step.events };
  const ts = await post(deps, step.conversation, step.payload, where, reply);
  if (ts === undefined) return;
  // Stored before the outbox records the part: a crash in between re-posts this part, in the same thread.
  if (parent === undefined) await deps.memory.set(key, ts, memoryTtlMs(step.events, deps.now().getTime()));
  // A message in several parts is not edited later (one edit would leave the other parts as they were).
  if (step.parts === 1) await remember(deps, step, { ts, thread: parent ?? ts, events: step.events });
}

function render(deps: StepDeps, issuer: IssuerRef, events: PositionEvent[]): SlackPayload[] {
  return renderSlack({ type: 'events', issuer, events }, { timezone: deps.timezone });
}

/**
 * Corrections of a recent message: that message edited with `chat.update` to show its events and the
 * corrections, with a note saying so; when Slack refuses the edit (too old, gone, not ours) or the whole
 * no longer fits one message, the corrections are a reply in its thread that says what they correct.
 */
async function editStep(deps: StepDeps & DeliveryTag, step: Extract<Step, { kind: 'edit' }>, where: string) {
  const { record, corrections, conversation } = step;
  const merged = mergedEvents(record.events, corrections);
  const [edited, ...more] = render(deps, step.issuer, merged);
  if (edited !== undefined && more.length === 0) {
    const note = editNote(corrections, formatInstant(deps.now().toISOString(), deps.timezone));
    try {
      await deps.call(
        'chat.update',
        { channel: conversation, ts: record.ts, ...withNote(edited, note) },
        where,
      );
      await remember(deps, step, { ...record, events: merged });
      return;
    } catch (error) {
      if (!isEditRefused(error)) throw error;
    }
  }
  const replies = render(deps, step.issuer, corrections);
  let first: string | undefined;
  for (const [index, payload] of replies.entries()) {
    const body = index === 0 ? withNote(payload, replyNote(corrections, record.ts)) : payload;
    const ts = await post(deps, conversation, body, where, { thread: record.thread, events: corrections });
    first ??= ts;
  }
  if (first !== undefined && replies.length === 1)
    await remember(deps, step, { ts: first, thread: record.thread, events: corrections });
}

/** Runs one step of a delivery. */
export async function runStep(deps: StepDeps & DeliveryTag, step: Step, where: string): Promise<void> {
  switch (step.kind) {
    case 'plain':
      await post(deps, step.conversation, step.payload, where);
      return;
    case 'issuer':
      await issuerStep(deps, step, where);
      return;
    case 'edit':
      await editStep(deps, step, where);
      return;
  }
}
