import { z } from 'zod';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';
import { readStored } from './stored-json.js';

/** Why a poll did not commit: the transport, the body, or a plausibility check on a 200. */
export type PollFailureCause =
  | 'bad-request'
  | 'schema'
  | 'server'
  | 'timeout'
  | 'network'
  | 'too-large'
  | 'unexpected-status'
  | 'wrong-issuer'
  | 'status-echo'
  | 'backwards'
  | 'partial'
  | 'corrupt-snapshot'
  | 'internal';

const failingSchema = z.object({
  since: z.string(),
  count: z.number().int().positive(),
  cause: z.string(),
  message: z.string(),
  byCause: z.record(z.string(), z.number()),
  /** When the sweep may plan the issuer again (epoch ms); absent in records written before backoff. */
  retryAt: z.number().optional(),
  /** The issuer list's version the failed poll was planned for: a newer one may earn an early try. */
  version: z.string().nullable().optional(),
});

/** An issuer whose polls keep failing: since when, how often, and the latest cause. */
export type Failing = z.infer<typeof failingSchema> & { cause: PollFailureCause };

const notFoundSchema = z.object({
  since: z.string(),
  count: z.number().int().positive(),
  retryAt: z.number(),
});

/** An issuer the upstream answered 404 for: since when, how many 404s in a row, when to ask again. */
export type NotFound = z.infer<typeof notFoundSchema>;

const laggingSchema = z.object({
  since: z.string(),
  count: z.number().int().positive(),
  /** The positions answer's `last_updated`, and the issuer list's version it fell short of. */
  answered: z.string(),
  expected: z.string(),
  /** When the sweep may plan it again (`lagBackoffMs`); `count` is the lagging answers for `expected`. */
  retryAt: z.number(),
});

/** An issuer whose positions answers carry an older dataset than the issuer list says (a replica behind). */
export type Lagging = z.infer<typeof laggingSchema>;

/** The health of one issuer's polling, as the sweep, `status` and `/readyz` read it. */
export interface IssuerHealth {
  /** When a sweep first found the issuer due and no poll has succeeded since. */
  dueSince?: string;
  failing?: Failing;
  notFound?: NotFound;
  lagging?: Lagging;
}

/** An envelope key set some answer carried, and when it was last seen. */
export interface EnvelopeSeen {
  field: string;
  keys: string[];
  lastSeen: string;
}

/** The poll-health hash as one read. */
export interface PollHealthView {
  issuers: Map<string, IssuerHealth>;
  envelopes: EnvelopeSeen[];
}

const DUE = 'due:';
const FAILING = 'failing:';
const NOT_FOUND = 'not-found:';
const LAGGING = 'lagging:';
const ENVELOPE = 'envelope:';

/** KEYS[1] the health hash; ARGV the due prefix, the new time. Every due mark at that time; returns how many. */
const RESTART_DUE_SCRIPT = `
local n = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, #ARGV[1]) == ARGV[1] then
    redis.call('HSET', KEYS[1], field, ARGV[2])
    n = n + 1
  end
end
return n
`;

/**
 * Per-issuer poll health in one hash, so a sweep reads all of it in one round trip. Fields are
 * `due:<id>` (written by sweeps, HSETNX), `failing:<id>` and `not-found:<id>` (written by the poll that
 * holds the issuer's lease, so never by two writers at once), and `envelope:<keys>` (last time an answer
 * carried envelope keys we do not know). A successful poll deletes the issuer's fields.
 */
export class PollHealth {
  readonly #redis: RedisClient;
  readonly #key: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#key = stateKeys(root).pollHealth;
  }

  /** Marks issuers due at `at`, keeping the earliest mark of those already due. */
  async markDue(issuerIds: readonly string[], at: Date): Promise<void> {
    if (issuerIds.length === 0) return;
    const pipeline = this.#redis.pipeline();
    for (const id of issuerIds) pipeline.hsetnx(this.#key, DUE + id, at.toISOString());
    await pipeline.exec();
  }

  /** A poll succeeded (committed, or found the snapshot current): the issuer is healthy again. */
  async succeeded(
    issuerId: string,
  ): Promise<{ wasFailing: boolean; wasNotFound: boolean; wasLagging: boolean }> {
    const replies =
      (await this.#redis
        .multi()
        .hdel(this.#key, FAILING + issuerId)
        .hdel(this.#key, NOT_FOUND + issuerId)
        .hdel(this.#key, DUE + issuerId)
        .hdel(this.#key, LAGGING + issuerId)
        .exec()) ?? [];
    return {
      wasFailing: replies[0]?.[1] === 1,
      wasNotFound: replies[1]?.[1] === 1,
      wasLagging: replies[3]?.[1] === 1,
    };
  }

  /**
   * Records one failed poll and when the sweep may plan the issuer again (`backoffMs(count)` after
   * it); returns the issuer's failure streak so far.
   */
  async failed(failure: {
    issuerId: string;
    cause: PollFailureCause;
    message: string;
    at: Date;
    version: string | null;
    backoffMs: (count: number) => number;
  }): Promise<Failing> {
    const previous = await this.#read(FAILING + failure.issuerId, failingSchema);
    const { cause, at } = failure;
    const count = (previous?.count ?? 0) + 1;
    const next: Failing = {
      since: previous?.since ?? at.toISOString(),
      count,
      cause,
      message: failure.message.slice(0, 300),
      byCause: { ...previous?.byCause, [cause]: (previous?.byCause[cause] ?? 0) + 1 },
      retryAt: at.getTime() + failure.backoffMs(count),
      version: failure.version,
    };
    await this.#redis.hset(this.#key, FAILING + failure.issuerId, JSON.stringify(next));
    return next;
  }

  /**
   * A poll committed an answer older than the issuer list's version: the issuer stays due (the gate
   * plans it again at its next check) and its lag is recorded, for a notice when it lasts.
   */
  async lagging(lag: {
    issuerId: string;
    answered: string;
    expected: string;
    at: Date;
    backoffMs: (count: number) => number;
  }): Promise<Lagging> {
    const { issuerId, at } = lag;
    const previous = await this.#read(LAGGING + issuerId, laggingSchema);
    // Counted per list version: a new version that lags too starts again at one.
    const count = previous?.expected === lag.expected ? previous.count + 1 : 1;
    const next: Lagging = {
      since: previous?.since ?? at.toISOString(),
      count,
      answered: lag.answered,
      expected: lag.expected,
      retryAt: at.getTime() + lag.backoffMs(count),
    };
    await this.#redis
      .multi()
      .hdel(this.#key, FAILING + issuerId, NOT_FOUND + issuerId)
      .hset(this.#key, LAGGING + issuerId, JSON.stringify(next))
      .exec();
    return next;
  }

  /** Records a 404; `backoffMs(count)` says how long to wait before asking again. */
  async notFound(issuerId: string, at: Date, backoffMs: (count: number) => number): Promise<NotFound> {
    const previous = await this.#read(NOT_FOUND + issuerId, notFoundSchema);
    const count = (previous?.count ?? 0) + 1;
    const next: NotFound = {
      since: previous?.since ?? at.toISOString(),
      count,
      retryAt: at.getTime() + backoffMs(count),
    };
    await this.#redis.hset(this.#key, NOT_FOUND + issuerId, JSON.stringify(next));
    return next;
  }

  /**
   * Starts every due mark again at `at`: after Redis lost writes (a failover to a stale replica) the marks
   * came back that polls since had deleted, and their old times would tell polls that ran as overdue.
   */
  async restartDueClocks(at: Date): Promise<number> {
    const reply = await this.#redis.eval(RESTART_DUE_SCRIPT, 1, this.#key, DUE, at.toISOString());
    return z.number().int().parse(reply);
  }

  /** Forgets an issuer's 404 state (`shortwatch resume ISSUER`); true when it had one. */
  async clearNotFound(issuerId: string): Promise<boolean> {
    return (await this.#redis.hdel(this.#key, NOT_FOUND + issuerId)) === 1;
  }

  /** Forgets everything about issuers no longer watched. */
  async forget(issuerIds: readonly string[]): Promise<void> {
    if (issuerIds.length === 0) return;
    const fields = issuerIds.flatMap((id) => [DUE + id, FAILING + id, NOT_FOUND + id, LAGGING + id]);
    await this.#redis.hdel(this.#key, ...fields);
  }

  /** Every issuer's health, keyed by issuer id (healthy issuers are absent). */
  async all(): Promise<Map<string, IssuerHealth>> {
    return (await this.read()).issuers;
  }

  /**
   * The whole hash in one read: every issuer's health, and the unknown envelope key sets. A damaged field
   * reads as absent: health is advisory and rebuilds itself at the next poll.
   */
  async read(): Promise<PollHealthView> {
    const raw = await this.#redis.hgetall(this.#key);
    const issuers = new Map<string, IssuerHealth>();
    const envelopes: EnvelopeSeen[] = [];
    const entry = (id: string) => issuers.get(id) ?? issuers.set(id, {}).get(id) ?? {};
    for (const [field, value] of Object.entries(raw)) {
      if (field.startsWith(DUE)) entry(field.slice(DUE.length)).dueSince = value;
      else if (field.startsWith(FAILING)) {
        const failing = readStored(value, failingSchema);
        if (failing) entry(field.slice(FAILING.length)).failing = failing as Failing;
      } else if (field.startsWith(NOT_FOUND)) {
        const notFound = readStored(value, notFoundSchema);
        if (notFound) entry(field.slice(NOT_FOUND.length)).notFound = notFound;
      } else if (field.startsWith(LAGGING)) {
        const lagging = readStored(value, laggingSchema);
        if (lagging) entry(field.slice(LAGGING.length)).lagging = lagging;
      } else if (field.startsWith(ENVELOPE)) {
        envelopes.push({ field, keys: field.slice(ENVELOPE.length).split(','), lastSeen: value });
      }
    }
    return { issuers, envelopes };
  }

  /** Records that an answer carried envelope keys we do not know; true the first time for this set. */
  async sawEnvelopeKeys(keys: readonly string[], at: Date): Promise<boolean> {
    const field = ENVELOPE + [...keys].sort().join(',');
    const first = await this.#redis.hsetnx(this.#key, field, at.toISOString());
    if (first === 0) await this.#redis.hset(this.#key, field, at.toISOString());
    return first === 1;
  }

  /** Forgets an envelope key set no answer has carried for a while. */
  async forgetEnvelope(field: string): Promise<void> {
    await this.#redis.hdel(this.#key, field);
  }

  async #read<T>(field: string, schema: z.ZodType<T>): Promise<T | undefined> {
    const raw = await this.#redis.hget(this.#key, field);
    return raw === null ? undefined : readStored(raw, schema);
  }
}
