import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { ChannelConfig } from '../config/schema.js';
import { holderKey } from '../positions/holder-key.js';
import type { PositionEvent } from '../positions/types.js';
import { holderMatches, issuerMatches, issuerNameKey } from './match-keys.js';
import { InvalidMuteError } from './mute-error.js';

/** What a mute silences: one holder or one issuer. */
export type MuteScope = 'holder' | 'issuer';

const muteSchema = z.object({
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
): Mute | undefined {
  return mutes.find(
    (mute) =>
      (mute.channel === undefined || mute.channel === channel.name) &&
      (channel.mode !== 'digest' || mute.digests) &&
      (mute.scope === 'holder'
        ? holderMatches(mute.target, event.holderKey)
        : issuerMatches(mute.target.trim(), event.issuer)),
  );
}

const countsSchema = z.record(z.string(), z.coerce.number().int());

/** Mutes in Redis, one key per mute expiring with it (PX), so no sweeper is needed. */
export class MuteStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  private keyOf(scope: MuteScope, key: string, channel: string | undefined): string {
    return `${this.prefix}:mute:${scope}:${channel ?? '*'}:${key}`;
  }

  private get countsKey(): string {
    return `${this.prefix}:mute-suppressed`;
  }

  /** Stores a mute for `forMs`; a mute of the same scope, target key and channel is replaced. */
  async add(request: MuteRequest): Promise<Mute> {
    const key = muteKey(request.scope, request.target);
    if (key === '')
      throw new InvalidMuteError('mute target has no letters or digits', request.scope, request.target);
    if (!Number.isSafeInteger(request.forMs) || request.forMs <= 0) {
      throw new InvalidMuteError(
        `mute duration ${request.forMs} ms is not a positive whole number`,
        request.scope,
        request.target,
      );
    }
    const createdAt = this.now();
    const mute: Mute = {
      scope: request.scope,
      target: request.target,
      key,
      ...(request.channel === undefined ? {} : { channel: request.channel }),
      until: createdAt + request.forMs,
      ...(request.reason === undefined ? {} : { reason: request.reason }),
      digests: request.digests ?? false,
      createdAt,
    };
    await this.redis.set(
      this.keyOf(mute.scope, key, mute.channel),
      JSON.stringify(mute),
      'PX',
      request.forMs,
    );
    return mute;
  }

  /** Lifts a mute; false when there was none. */
  async remove(scope: MuteScope, target: string, channel?: string): Promise<boolean> {
    const removed = await this.redis.del(this.keyOf(scope, muteKey(scope, target), channel));
    return removed > 0;
  }

  /** Every mute still in force, oldest first (ties in a stable order, whatever SCAN returned). */
  async list(): Promise<Mute[]> {
    const keys = await this.scanKeys(`${this.prefix}:mute:*`);
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys);
    const now = this.now();
    const mutes: Mute[] = [];
    for (const value of values) {
      // A key that expired since the scan, or a record we cannot read, silences nothing: sending is the safe failure.
      if (value === null) continue;
      const parsed = muteSchema.safeParse(safeJson(value));
      if (parsed.success && parsed.data.until > now) mutes.push(parsed.data);
    }
    return mutes.sort((a, b) => a.createdAt - b.createdAt || identity(a).localeCompare(identity(b)));
  }

  /** Adds `n` to the count of events a mute kept from `channel`. */
  async countSuppressed(channel: string, n: number): Promise<void> {
    if (n > 0) await this.redis.hincrby(this.countsKey, channel, n);
  }

  /** Events kept from each channel by mutes, since counting began. */
  async suppressedCounts(): Promise<Record<string, number>> {
    return countsSchema.parse(await this.redis.hgetall(this.countsKey));
  }

  private async scanKeys(pattern: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    // SCAN may return a key twice.
    return [...new Set(keys)];
  }
}

function identity(mute: Mute): string {
  return `${mute.scope}:${mute.channel ?? ''}:${mute.key}`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
