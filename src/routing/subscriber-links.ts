import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a link lets its holder do: see and edit their preferences, or leave. */
export type LinkPurpose = 'manage' | 'unsubscribe';

/** What a valid link says. */
export interface LinkClaim {
  subscriberId: string;
  generation: number;
  purpose: LinkPurpose;
  expiresAt: number;
}

/** Why a link was refused: the page says so in words, never which part of a forged token was wrong. */
export type LinkRefusal = 'malformed' | 'forged' | 'expired' | 'revoked' | 'wrong-purpose';

const PURPOSES: readonly LinkPurpose[] = ['manage', 'unsubscribe'];

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

/**
 * A signed, expiring link token for one subscriber: `<id>.<generation>.<expiry s>.<purpose>.<hmac>`.
 * No password: whoever holds the token acts as the subscriber, for this purpose and until it expires, or
 * until the subscriber's link generation is raised (every link handed out so far is then revoked). Pure.
 */
export function signLink(secret: string, claim: LinkClaim): string {
  const payload = `${claim.subscriberId}.${claim.generation}.${Math.floor(claim.expiresAt / 1000)}.${claim.purpose}`;
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The claim of a token signed with `secret`, or why it is refused; the generation is checked by the caller. */
export function readLink(
  secret: string,
  token: string,
  purpose: LinkPurpose,
  nowMs: number,
): { ok: true; claim: LinkClaim } | { ok: false; refusal: LinkRefusal } {
  const parts = token.split('.');
  if (parts.length !== 5) return { ok: false, refusal: 'malformed' };
  const [subscriberId = '', generation = '', expiry = '', claimed = '', signature = ''] = parts;
  // Compared as written, not decoded: base64url's last character has unused bits, so a decoder reads
  // several spellings of one signature as the same bytes, and a changed link would still be accepted.
  const expected = Buffer.from(mac(secret, parts.slice(0, 4).join('.')).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, refusal: 'forged' };
  }
  const known = PURPOSES.find((p) => p === claimed);
  if (!/^\d+$/u.test(generation) || !/^\d+$/u.test(expiry) || !known)
    return { ok: false, refusal: 'malformed' };
  if (known !== purpose) return { ok: false, refusal: 'wrong-purpose' };
  const expiresAt = Number(expiry) * 1000;
  if (expiresAt <= nowMs) return { ok: false, refusal: 'expired' };
  return { ok: true, claim: { subscriberId, generation: Number(generation), purpose: known, expiresAt } };
}

/** What links are built from: the `subscribers` section and the console's public URL. */
interface LinkSettings {
  subscribers?:
    | { linkSecret: { reveal(): string }; linkTtl: number; publicUrl?: string | undefined }
    | undefined;
  http: { publicUrl?: string | undefined };
}

/** The URLs of one subscriber's links at `now`, or undefined when subscribers are not configured. */
export function subscriberLinks(
  config: LinkSettings,
  subscriber: { id: string; linkGeneration: number },
  now: Date,
): { manage: string; unsubscribe: string } | undefined {
  const settings = config.subscribers;
  const base = settings?.publicUrl ?? config.http.publicUrl;
  if (!settings || !base) return undefined;
  const secret = settings.linkSecret.reveal();
  const claim = {
    subscriberId: subscriber.id,
    generation: subscriber.linkGeneration,
    expiresAt: now.getTime() + settings.linkTtl,
  };
  const url = (path: string, purpose: LinkPurpose) =>
    new URL(
      `${path}/${signLink(secret, { ...claim, purpose })}`,
      base.endsWith('/') ? base : `${base}/`,
    ).toString();
  return { manage: url('me', 'manage'), unsubscribe: url('unsubscribe', 'unsubscribe') };
}

/** The "Manage my alerts" URL of one subscriber, or undefined when subscribers are not configured. */
export function manageLink(
  config: LinkSettings,
  subscriber: { id: string; linkGeneration: number },
  now: Date,
): string | undefined {
  return subscriberLinks(config, subscriber, now)?.manage;
}
