import { z } from 'zod';
import type { ChannelConfig } from '../config/schema.js';
import { HolderIdentities } from '../positions/holder-identity.js';
import { holderKey } from '../positions/holder-key.js';
import type { PositionEvent } from '../positions/types.js';
import { issuerMatches, issuerNameKey } from './match-keys.js';

/** What a mute silences: one holder or one issuer. */
export type MuteScope = 'holder' | 'issuer';

/** A stored mute, as read back from Redis. */
export const muteSchema = z.object({
  scope: z.enum(['holder', 'issuer']),
  /** As typed by the operator. */
  target: z.string().min(1),
  /** holderKey(target) for holders; the normalised name for issuers. */
  key: z.string().min(1),
  /** Only this channel; absent: every channel. */
  channel: z.string().optional(),
  /** Epoch ms at which the mute lapses. */
  until: z.number(),
  reason: z.string().optional(),
  /** true: digests are silenced too; false: digest channels still receive the muted events. */
  digests: z.boolean(),
  createdAt: z.number(),
});

/** A temporary silence on a holder or an issuer, for one channel or all. */
export type Mute = z.infer<typeof muteSchema>;

/** What the operator gives to create a mute; `digests` defaults to false. */
export interface MuteRequest {
  scope: MuteScope;
  target: string;
  channel?: string;
  reason?: string;
  digests?: boolean;
  /** How long the mute lasts, in ms. */
  forMs: number;
}

/** The key a mute is matched and stored by. */
export function muteKey(scope: MuteScope, target: string): string {
  return scope === 'holder' ? holderKey(target) : issuerNameKey(target);
}

/**
 * The mute that silences `event` on `channel`, if any. Issuer mutes match the exact id or the
 * normalised name; holder mutes match like filter holders. On a digest channel only mutes with
 * `digests: true` count.
 */
export function isMuted(
  event: PositionEvent,
  channel: ChannelConfig,
  mutes: readonly Mute[],
  holders: HolderIdentities = HolderIdentities.none,
): Mute | undefined {
  return mutes.find(
    (mute) =>
      (mute.channel === undefined || mute.channel === channel.name) &&
      (channel.mode !== 'digest' || mute.digests) &&
      (mute.scope === 'holder'
        ? holders.matches(mute.target, event)
        : issuerMatches(mute.target.trim(), event.issuer)),
  );
}
