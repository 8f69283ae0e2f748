import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { issuerNameKey } from '../routing/match-keys.js';
import {
  type Subscriber,
  type SubscriberInput,
  subscriberInputSchema,
  subscriberSchema,
} from '../routing/subscriber.js';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';
import { readStored } from './stored-json.js';

/** Who changed a subscriber and through what: the audit trail's columns. */
export interface Actor {
  /** A person or process: `operator`, the subscriber's own e-mail, `import <file>`. */
  who: string;
  via: 'cli' | 'console' | 'link' | 'import' | 'one-click';
  /** Where from: a client address, a host name. */
  from?: string;
}

/** One audit entry, newest first when read back. */
export interface AuditEntry {
  at: string;
  subscriberId: string;
  action: string;
  version: number;
  who: string;
  via: string;
  from: string;
  /** What the change changed: field paths such as `watch.issuers` or `prefs.mode` (empty for an add or a removal). */
  changed: string[];
}

/** A change refused: no such subscriber, an address taken, or an edit that read an older version. */
export class SubscriberChangeError extends Error {
  constructor(
    message: string,
    readonly reason: 'not-found' | 'email-taken' | 'stale' | 'invalid',
  ) {
    super(message);
    this.name = 'SubscriberChangeError';
  }
}

/** True for a {@link SubscriberChangeError}. */
export function isSubscriberChangeError(error: unknown): error is SubscriberChangeError {
  return error instanceof SubscriberChangeError;
}

const AUDIT_KEPT = 100_000;
const CHANGE_RETRIES = 10;

const auditFields = z.object({
  id: z.string(),
  action: z.string(),
  version: z.coerce.number(),
  who: z.string(),
  via: z.string(),
  from: z.string().default(''),
  changed: z.string().default(''),
  at: z.string(),
});

/** The index entries of a subscriber's issuers: an entry is looked up as an id and as a name alike. */
function issuerIndexKeys(subscriber: Subscriber | undefined): string[] {
  return [...new Set((subscriber?.watch.issuers ?? []).map(issuerNameKey).filter((k) => k !== ''))];
}

/**
 * Subscribers in Redis: one hash of records, an e-mail index, a fan-out index from each followed issuer
 * to its subscribers, and an audit stream. Every change is one script that replaces the record only if
 * it is still the bytes the change was computed from (optimistic, retried), moves the indexes with it
 * and writes the audit entry: nothing is half-changed, and two edits never lose one another.
 */
export class SubscriberStore {
  readonly #redis: RedisClient;
  readonly #keys: ReturnType<typeof stateKeys>;
  readonly #now: () => Date;
  /** The last record read per id, with its bytes: at most one per subscriber. */
  readonly #parsed = new Map<string, { raw: string; subscriber: Subscriber }>();

  constructor(redis: RedisClient, root: string, now: () => Date = () => new Date()) {
    this.#redis = redis;
    this.#keys = stateKeys(root);
    this.#now = now;
  }

  /** The input as the store would take it, or a {@link SubscriberChangeError} naming the first problem. */
  check(input: unknown): z.output<typeof subscriberInputSchema> {
    const parsed = subscriberInputSchema.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error.issues[0]);
    return parsed.data;
  }

  /** Adds a subscriber; an address already subscribed is refused. */
  async add(input: SubscriberInput, actor: Actor): Promise<Subscriber> {
    const parsed = this.check(input);
    const at = this.#now().toISOString();
    const subscriber: Subscriber = subscriberSchema.parse({
      ...parsed,
      id: randomBytes(6).toString('hex'),
      version: 1,
      linkGeneration: 0,
      createdAt: at,
      updatedAt: at,
      ...(parsed.prefs.paused ? { pausedAt: at } : {}),
    });
    // A fresh random id is never stored already: 'stale' cannot happen here.
    await this.#write(undefined, subscriber, 'added', actor);
    return subscriber;
  }

  /**
   * Changes a subscriber through `change`, which sees the stored record; `expectedVersion` (from a form
   * that showed an older one) refuses an edit made over someone else's.
   */
  async update(
    id: string,
    change: (current: Subscriber) => Subscriber,
    actor: Actor,
    action = 'edited',
    expectedVersion?: number,
  ): Promise<Subscriber> {
    for (let attempt = 0; attempt < CHANGE_RETRIES; attempt++) {
      const current = await this.get(id);
      if (!current) throw new SubscriberChangeError(`no subscriber ${id}`, 'not-found');
      if (expectedVersion !== undefined && current.version !== expectedVersion) {
        throw new SubscriberChangeError(
          `subscriber ${id} changed since it was read (version ${current.version}, not ${expectedVersion}): reload and edit again`,
          'stale',
        );
      }
      const at = this.#now().toISOString();
      const next = checked({
        ...withPausedAt(current, change(current), at),
        id,
        version: current.version + 1,
        createdAt: current.createdAt,
        updatedAt: at,
      });
      if ((await this.#write(current, next, action, actor)) === 'ok') return next;
    }
    throw new SubscriberChangeError(`subscriber ${id} kept changing under this edit: try again`, 'stale');
  }

  /** Removes a subscriber and its index entries; its outbox drains what it already holds. */
  async remove(id: string, actor: Actor): Promise<Subscriber> {
    for (let attempt = 0; attempt < CHANGE_RETRIES; attempt++) {
      const current = await this.get(id);
      if (!current) throw new SubscriberChangeError(`no subscriber ${id}`, 'not-found');
      if ((await this.#write(current, undefined, 'removed', actor)) === 'ok') return current;
    }
    throw new SubscriberChangeError(`subscriber ${id} kept changing: try again`, 'stale');
  }

  /** One subscriber, or undefined when absent or unreadable. */
  async get(id: string): Promise<Subscriber | undefined> {
    return this.#read(id, await this.#redis.hget(this.#keys.subscribers, id));
  }

  /**
   * A stored record through its schema, reusing the last one read for this id when its bytes are the
   * same: routing a burst reads each follower once per issuer (thousands of records), and a record only
   * changes by a new version. Records are shared, never changed in place (every change writes a new one).
   */
  #read(id: string, raw: string | null): Subscriber | undefined {
    if (raw === null) {
      this.#parsed.delete(id);
      return undefined;
    }
    const known = this.#parsed.get(id);
    if (known?.raw === raw) return known.subscriber;
    const subscriber = readStored(raw, subscriberSchema);
    if (subscriber) this.#parsed.set(id, { raw, subscriber });
    else this.#parsed.delete(id);
    return subscriber;
  }

  /** The subscriber with this address (any case), if any. */
  async byEmail(email: string): Promise<Subscriber | undefined> {
    const id = await this.#redis.hget(this.#keys.subscriberEmails, email.trim().toLowerCase());
    return id === null ? undefined : this.get(id);
  }

  /** Every subscriber, by name: for the CLI, the console and an export, never for routing. */
  async list(): Promise<Subscriber[]> {
    const all = await this.#redis.hvals(this.#keys.subscribers);
    return all
      .map((raw) => readStored(raw, subscriberSchema))
      .filter((s): s is Subscriber => s !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  /** How many subscribers there are. */
  async count(): Promise<number> {
    return this.#redis.hlen(this.#keys.subscribers);
  }

  /**
   * The subscribers who may follow any of these issuers (by the index) or any holder anywhere: a routing
   * step costs work in proportion to them, not to every subscriber. The caller matches exactly.
   */
  async candidates(issuers: ReadonlyArray<{ id: string; name: string }>): Promise<Subscriber[]> {
    const entryKeys = [...new Set(issuers.flatMap((i) => [issuerNameKey(i.id), issuerNameKey(i.name)]))];
    const sets = [
      ...entryKeys.filter((k) => k !== '').map((k) => this.#keys.subscriberIssuerIndex(k)),
      this.#keys.subscriberHolderWatchers,
    ];
    const ids = await this.#redis.sunion(...sets);
    if (ids.length === 0) return [];
    const raws = await this.#redis.hmget(this.#keys.subscribers, ...ids);
    return raws
      .map((raw, i) => this.#read(ids[i] ?? '', raw))
      .filter((s): s is Subscriber => s !== undefined);
  }

  /** A number every change raises: unchanged, nothing was changed since it was read. */
  async version(): Promise<string> {
    return (await this.#redis.get(this.#keys.subscribersVersion)) ?? '0';
  }

  /** Every issuer entry some subscriber follows: the union polling follows. */
  async followedIssuers(): Promise<string[]> {
    const entries = new Set<string>();
    for (const subscriber of await this.list())
      for (const issuer of subscriber.watch.issuers) entries.add(issuer);
    return [...entries].sort();
  }

  /** The audit trail, newest first, of one subscriber or of all. */
  async audit(id?: string, count = 200): Promise<AuditEntry[]> {
    const rows = await this.#redis.xrevrange(
      this.#keys.subscriberAudit,
      '+',
      '-',
      'COUNT',
      id ? count * 20 : count,
    );
    const entries: AuditEntry[] = [];
    for (const [, flat] of rows) {
      const parsed = auditFields.safeParse(Object.fromEntries(pairs(flat)));
      if (!parsed.success || (id && parsed.data.id !== id)) continue;
      const { changed, ...fields } = parsed.data;
      entries.push({
        ...fields,
        subscriberId: fields.id,
        changed: changed === '' ? [] : changed.split(','),
      });
      if (entries.length >= count) break;
    }
    return entries;
  }

  /**
   * Writes the move from `before` to `after` (either absent) in one script: refused as stale when the
   * stored record is no longer `before`'s bytes, as taken when another subscriber has `after`'s address.
   */
  async #write(
    before: Subscriber | undefined,
    after: Subscriber | undefined,
    action: string,
    actor: Actor,
  ): Promise<'ok' | 'stale'> {
    const keys = this.#keys;
    const subject = after ?? before;
    const id = subject?.id ?? '';
    const removed = issuerIndexKeys(before).filter((k) => !issuerIndexKeys(after).includes(k));
    const added = issuerIndexKeys(after);
    const reply = await this.#redis.eval(
      WRITE_SCRIPT,
      5 + removed.length + added.length,
      keys.subscribers,
      keys.subscriberEmails,
      keys.subscriberHolderWatchers,
      keys.subscriberAudit,
      keys.subscribersVersion,
      ...removed.map((k) => keys.subscriberIssuerIndex(k)),
      ...added.map((k) => keys.subscriberIssuerIndex(k)),
      id,
      before ? JSON.stringify(before) : '',
      after ? JSON.stringify(after) : '',
      before?.email.toLowerCase() ?? '',
      after?.email.toLowerCase() ?? '',
      after && after.watch.holders.length > 0 ? '1' : '0',
      removed.length,
      AUDIT_KEPT,
      ...auditRow(subject, action, actor, this.#now(), changedFields(before, after)),
    );
    if (typeof reply === 'string' && reply.startsWith('taken:')) {
      throw new SubscriberChangeError(
        `${after?.email ?? ''} is subscribed already (subscriber ${reply.slice(6)})`,
        'email-taken',
      );
    }
    return reply === 1 ? 'ok' : 'stale';
  }
}

/**
 * KEYS: records, e-mails, holder watchers, audit, version, the index sets to leave, the index sets to join.
 * ARGV: id, the record's bytes as read ('' = absent), the new bytes ('' = remove), old and new e-mail,
 * follows holders (1/0), how many index sets to leave, audit length, then the audit row's field pairs.
 * Compares bytes, never decodes JSON. Returns 1, 0 (stale), or `taken:<owner>`.
 */
const WRITE_SCRIPT = `
local id, expected, nextRaw = ARGV[1], ARGV[2], ARGV[3]
local current = redis.call('HGET', KEYS[1], id)
if (current or '') ~= expected then return 0 end
if ARGV[5] ~= '' then
  local owner = redis.call('HGET', KEYS[2], ARGV[5])
  if owner and owner ~= id then return 'taken:' .. owner end
end
local nRemoved = tonumber(ARGV[7])
for i = 6, 5 + nRemoved do redis.call('SREM', KEYS[i], id) end
if ARGV[4] ~= '' and ARGV[4] ~= ARGV[5] then redis.call('HDEL', KEYS[2], ARGV[4]) end
if nextRaw == '' then
  redis.call('HDEL', KEYS[1], id)
  redis.call('SREM', KEYS[3], id)
else
  redis.call('HSET', KEYS[1], id, nextRaw)
  redis.call('HSET', KEYS[2], ARGV[5], id)
  for i = 6 + nRemoved, #KEYS do redis.call('SADD', KEYS[i], id) end
  if ARGV[6] == '1' then redis.call('SADD', KEYS[3], id) else redis.call('SREM', KEYS[3], id) end
end
local row = {}
for i = 9, #ARGV do row[#row + 1] = ARGV[i] end
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[8], '*', unpack(row))
redis.call('INCR', KEYS[5])
return 1
`;

/** The fields a person sets, or shortwatch's state of them, that differ between two versions of a subscriber. */
function changedFields(before: Subscriber | undefined, after: Subscriber | undefined): string[] {
  if (!before || !after) return [];
  const fields = (s: Subscriber): Record<string, unknown> => ({
    name: s.name,
    email: s.email,
    'watch.issuers': s.watch.issuers,
    'watch.holders': s.watch.holders,
    ...Object.fromEntries(Object.entries(s.prefs).map(([k, v]) => [`prefs.${k}`, v])),
    linkGeneration: s.linkGeneration,
    unsubscribedAt: s.unsubscribedAt,
  });
  const was = fields(before);
  const now = fields(after);
  return [...new Set([...Object.keys(was), ...Object.keys(now)])].filter(
    (key) => JSON.stringify(was[key]) !== JSON.stringify(now[key]),
  );
}

function auditRow(
  subject: Subscriber | undefined,
  action: string,
  actor: Actor,
  now: Date,
  changed: readonly string[],
): string[] {
  return [
    'id',
    subject?.id ?? '',
    'action',
    action,
    'version',
    String(subject?.version ?? 0),
    'who',
    actor.who,
    'via',
    actor.via,
    'from',
    actor.from ?? '',
    'changed',
    changed.join(','),
    'at',
    now.toISOString(),
  ];
}

/**
 * The change with `pausedAt` kept true to its pause: set when this change pauses, kept while paused,
 * dropped when it resumes. The store sets it, so every way of pausing (CLI, page, import) records when.
 */
function withPausedAt(current: Subscriber, next: Subscriber, at: string): Subscriber {
  const { pausedAt: _, ...rest } = next;
  if (!next.prefs.paused) return rest;
  // Paused before `pausedAt` was kept: unknown, rather than the time of this unrelated edit.
  const since = current.prefs.paused ? current.pausedAt : at;
  return since === undefined ? rest : { ...rest, pausedAt: since };
}

function pairs(flat: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i] ?? '', flat[i + 1] ?? '']);
  return out;
}

function invalid(issue: z.core.$ZodIssue | undefined): SubscriberChangeError {
  return new SubscriberChangeError(
    `${issue?.path.join('.') || 'subscriber'}: ${issue?.message ?? 'invalid'}`,
    'invalid',
  );
}

function checked(candidate: unknown): Subscriber {
  const parsed = subscriberSchema.safeParse(candidate);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  return parsed.data;
}
