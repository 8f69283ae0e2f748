import { createHash } from 'node:crypto';
import { DAY_MS } from '../../time/units.js';
import { DeliveryError } from '../delivery-error.js';
import type { ChannelMemory } from '../types.js';
import type { WebApiAnswer } from './web-api.js';

/**
 * How long a user's DM conversation is kept: a day, so a user who left, or an address moved to another
 * person, is looked up again within a day, while a busy day asks Slack once per user.
 */
export const DIRECT_MEMORY_MS = DAY_MS;

/** What the lookup needs: the gated Web API call and the channel's memory. */
export interface DirectDeps {
  call: (method: string, args: Record<string, unknown>, where: string) => Promise<WebApiAnswer>;
  memory: ChannelMemory;
}

function directKey(email: string): string {
  return `dm:${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24)}`;
}

function missingField(method: string, email: string): DeliveryError {
  return new DeliveryError(`Slack ${method} answered ok without an id for ${email}`, {
    outcome: 'retry',
    code: 'invalid_answer',
  });
}

/** A Slack user id (`U…`, or `W…` on Enterprise Grid): a subscriber may give theirs instead of an address. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/u;

/** The user id of `who`: itself when it is one, else `users.lookupByEmail` (a `users_not_found` parks). */
async function userOf(who: string, where: string, deps: DirectDeps): Promise<string> {
  if (USER_ID.test(who)) return who;
  const found = await deps.call('users.lookupByEmail', { email: who }, where);
  const user = found.body?.user?.id;
  if (user === undefined) throw missingField('users.lookupByEmail', who);
  return user;
}

/**
 * The DM conversation (`D…`) with a Slack user, given by id or by e-mail address: from memory, else
 * the user (an id as given, an address by `users.lookupByEmail`, whose `users_not_found` parks, as no
 * retry finds them) then `conversations.open`, remembered for {@link DIRECT_MEMORY_MS}.
 */
export async function directConversation(who: string, deps: DirectDeps): Promise<string> {
  const key = directKey(who);
  const known = await deps.memory.get(key);
  if (known !== undefined) return known;
  const where = ` (direct message to ${who})`;
  const user = await userOf(who, where, deps);
  const opened = await deps.call('conversations.open', { users: user }, where);
  const channel = opened.body?.channel;
  const id = typeof channel === 'object' ? channel.id : undefined;
  if (id === undefined) throw missingField('conversations.open', who);
  await deps.memory.set(key, id, DIRECT_MEMORY_MS);
  return id;
}
