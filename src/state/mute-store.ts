import { z } from 'zod';
import { InvalidMuteError } from '../routing/mute-error.js';
import { type Mute, type MuteRequest, type MuteScope, muteKey, muteSchema } from '../routing/mutes.js';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';
import { parseStored } from './stored-json.js';

const countsSchema = z.record(z.string(), z.coerce.number().int());

/**
 * Mutes in one Redis hash (field: scope, channel and key; value: the mute with its end), so that every
 * poll reads them with one HGETALL and no SCAN; lapsed mutes are skipped on read and removed then.
 */
export class MuteStore {
  readonly #redis: RedisClient;
  readonly #root: string;
  readonly #now: () => number;

  constructor(redis: RedisClient, root: string, now: () => number = Date.now) {
    this.#redis = redis;
    this.#root = root;
    this.#now = now;
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
    const createdAt = this.#now();
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
    await this.#redis.hset(this.#hash, fieldOf(mute.scope, key, mute.channel), JSON.stringify(mute));
    return mute;
  }

  /** Lifts a mute; false when there was none in force. */
  async remove(scope: MuteScope, target: string, channel?: string): Promise<boolean> {
    const field = fieldOf(scope, muteKey(scope, target), channel);
    const raw = await this.#redis.hget(this.#hash, field);
    await this.#redis.hdel(this.#hash, field);
    const parsed = parseStored(raw, muteSchema);
    return parsed.success && parsed.data.until > this.#now();
  }

  /** Every mute still in force, oldest first (ties in a stable order). */
  async list(): Promise<Mute[]> {
    const all = await this.#redis.hgetall(this.#hash);
    const now = this.#now();
    const mutes: Mute[] = [];
    const lapsed: string[] = [];
    for (const [field, value] of Object.entries(all)) {
      // A record we cannot read silences nothing: sending is the safe failure.
      const parsed = parseStored(value, muteSchema);
      if (parsed.success && parsed.data.until > now) mutes.push(parsed.data);
      else if (parsed.success) lapsed.push(field);
    }
    if (lapsed.length > 0) await this.#redis.hdel(this.#hash, ...lapsed);
    return mutes.sort((a, b) => a.createdAt - b.createdAt || identity(a).localeCompare(identity(b)));
  }

  /** Events kept from each channel by mutes, since counting began. */
  async suppressedCounts(): Promise<Record<string, number>> {
    return countsSchema.parse(await this.#redis.hgetall(stateKeys(this.#root).muteSuppressed));
  }

  get #hash(): string {
    return stateKeys(this.#root).mutes;
  }
}

function fieldOf(scope: MuteScope, key: string, channel: string | undefined): string {
  return `${scope}:${channel ?? '*'}:${key}`;
}

function identity(mute: Mute): string {
  return `${mute.scope}:${mute.channel ?? ''}:${mute.key}`;
}
