import type { IssuerEvents, Message, SendProgress } from '../types.js';

/** The rate options of nodemailer's pool for `ratePerSecond` e-mails a second (fractions kept exact). */
export function poolRate(ratePerSecond: number): { rateLimit: number; rateDelta: number } {
  const rateLimit = Math.max(1, Math.floor(ratePerSecond));
  return { rateLimit, rateDelta: Math.round((1_000 * rateLimit) / ratePerSecond) };
}

/**
 * How many issuers one delivery of a backlog carries: one second's worth of e-mails at the channel's
 * rate (at least one), each still its own e-mail. With one connection there is nothing to send side by
 * side: one issuer per delivery. A rate under one a second keeps one e-mail per delivery, so the
 * deliverer's spacing of deliveries stays the channel's rate.
 */
export function burstCoalesce(maxConnections: number, ratePerSecond: number) {
  const perDelivery = maxConnections === 1 ? 1 : Math.max(1, Math.ceil(ratePerSecond));
  return (groups: readonly IssuerEvents[]): number => Math.min(groups.length, perDelivery);
}

/** One e-mail of a delivery: its message and the id its Message-ID derives from. */
export interface MailPart {
  message: Message;
  deliveryId: string;
}

/**
 * The e-mails of one delivery: an issuer's events are one; a batch (a burst's delivery) is one e-mail per
 * issuer, each with its own subject, thread and a Message-ID of its own (`<delivery id>-<n>`), the same
 * on every attempt.
 */
export function mailParts(message: Message, deliveryId: string): MailPart[] {
  if (message.type !== 'batch') return [{ message, deliveryId }];
  return message.groups.map((group, index) => ({
    message: { type: 'events', issuer: group.issuer, events: group.events },
    deliveryId: `${deliveryId}-${index + 1}`,
  }));
}

/**
 * Sends the parts not sent by earlier attempts all at once (the pool queues them over its connections at
 * its rate), records how many leading parts went out, and throws the first part's failure, if any. A
 * part sent after a failed one is sent again on the next attempt, under the same Message-ID, which mail
 * systems drop as a repeat.
 */
export async function sendParts(
  parts: readonly MailPart[],
  progress: SendProgress | undefined,
  sendOne: (part: MailPart) => Promise<void>,
): Promise<void> {
  const from = progress?.partsSent ?? 0;
  const results = await Promise.allSettled(parts.slice(from).map(sendOne));
  const failedAt = results.findIndex((result) => result.status === 'rejected');
  const leading = failedAt === -1 ? results.length : failedAt;
  if (parts.length > 1 && leading > 0) await progress?.onPartSent?.(from + leading);
  const failed = results[failedAt];
  if (failed?.status === 'rejected') throw failed.reason;
}
