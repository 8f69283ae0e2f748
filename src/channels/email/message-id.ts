import { createHash } from 'node:crypto';

/** The Message-ID domain when `from` has none we can use: `.invalid` is reserved and never resolves. */
export const FALLBACK_MESSAGE_ID_DOMAIN = 'shortwatch.invalid';

// RFC 5322 dot-atom-text: what a Message-ID's left part may hold without quoting.
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// Plain ASCII host names only: anything odder is not worth putting in a header.
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
// Keeps the whole Message-ID well inside the 998-character line limit of a header.
const LOCAL_MAX = 200;

/** The domain of a `from` address (`a@example.com` or `Name <a@example.com>`), or the fallback. */
export function senderDomain(from: string): string {
  const bracketed = /<([^<>]*)>\s*$/.exec(from);
  const address = (bracketed?.[1] ?? from).trim();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return address.includes('@') && HOST_NAME.test(domain) ? domain : FALLBACK_MESSAGE_ID_DOMAIN;
}

/**
 * `<deliveryId@domain>`, the same on every attempt, so that mail systems drop a resend as a repeat.
 * An id that is not a plain dot-atom (or is very long) is replaced by its SHA-256, which is as stable.
 */
export function deliveryMessageId(deliveryId: string, from: string): string {
  const plain = DOT_ATOM.test(deliveryId) && deliveryId.length <= LOCAL_MAX;
  const local = plain ? deliveryId : `sha256.${createHash('sha256').update(deliveryId).digest('hex')}`;
  return `<${local}@${senderDomain(from)}>`;
}
