import type { Message, SendProgress } from '../types.js';
import { listId } from './list-id.js';
import { deliveryMessageId } from './message-id.js';
import { oneLine } from './text.js';
import { threadDay, threadRootId } from './thread.js';

/** Header naming the message type, so that mail rules can sort alerts, digests and notices. */
export const MESSAGE_TYPE_HEADER = 'X-Shortwatch-Message';

/** Header carrying the delivery's id, the same on every attempt. */
export const DELIVERY_HEADER = 'X-Shortwatch-Delivery';

/** The channel a message goes out on: its name (List-Id, thread) and sender (the ids' domain). */
export interface MailChannel {
  name: string;
  from: string;
}

/** A header value nodemailer sends as given: no MIME encoding, no folding (ASCII, short). */
export interface PreparedHeader {
  prepared: true;
  value: string;
}

/** Headers and ids of one e-mail, as nodemailer takes them. */
export interface DeliveryFields {
  headers: Record<string, string | PreparedHeader>;
  messageId?: string;
  inReplyTo?: string;
  references?: string;
}

/**
 * The thread root of a message: one issuer's events belong to that issuer's thread of the day. A batch
 * (several issuers), a digest (a summary complete in itself, one per period), a notice and a test stand
 * alone.
 */
function threadRoot(message: Message, channel: MailChannel): string | undefined {
  if (message.type !== 'events') return undefined;
  const day = threadDay(message.events);
  return day === undefined ? undefined : threadRootId(channel.name, message.issuer.id, day, channel.from);
}

/**
 * Every header of one delivery but From/To/Subject/Date. A resend (same delivery id) carries the same
 * Message-ID, which mail systems drop as a repeat; `Auto-Submitted` keeps vacation responders from
 * answering (RFC 3834); `List-Id` lets rules file a channel (RFC 2919); `In-Reply-To`/`References` name
 * the day's thread root. Pure.
 */
export function deliveryFields(
  message: Message,
  channel: MailChannel,
  progress: SendProgress | undefined,
): DeliveryFields {
  const headers: Record<string, string | PreparedHeader> = {
    [MESSAGE_TYPE_HEADER]: message.type,
    'Auto-Submitted': 'auto-generated',
    // nodemailer would MIME-encode the quotes and brackets of a list id, which no client reads back.
    'List-Id': { prepared: true, value: listId(channel.name, channel.from) },
  };
  const root = threadRoot(message, channel);
  const thread = root ? { inReplyTo: root, references: root } : {};
  if (!progress) return { headers, ...thread };
  headers[DELIVERY_HEADER] = oneLine(progress.deliveryId);
  return { headers, messageId: deliveryMessageId(progress.deliveryId, channel.from), ...thread };
}
