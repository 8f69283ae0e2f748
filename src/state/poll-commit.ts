import { z } from 'zod';
import { snapshotSchema } from '../positions/schemas.js';
import type { PositionEvent, Snapshot } from '../positions/types.js';
import type { RouteVerdict } from '../routing/route.js';
import { stateKeys } from './keys.js';
import { MARK_WORK, TRIM_SEEN } from './outbox-lua.js';
import { RECORD_VERSION } from './outbox-records.js';
import type { RedisClient } from './redis-connection.js';
import { DEDUPE_MEMORY_MS, EVENTS_LOGGED_FACTOR, GLOBAL_EVENTS_FACTOR } from './retention.js';
import { RAISE_MARK_LUA } from './state-mark.js';

/**
 * The one write of a poll. KEYS[1] snapshot hash, KEYS[2] global event stream, KEYS[3] mute-suppressed
 * counts, KEYS[4] the set of baselined issuers, KEYS[5] the high-water mark, KEYS[6] subscribers' outboxes
 * with work, then 2 keys per logged event (its issuer's logged ids, issuer stream),
 * then 3 per target (outbox: pending, items, seen; digest: staged, meta, seen).
 * ARGV: expected `at` ('' = none), new `at`, snapshot JSON, per-issuer cap, global cap, logged ids kept per
 * issuer, dedupe memory (ms), wake channel, issuer id, event count, the event log entries (event id, event
 * JSON, routes JSON) each, body count, the item bodies (JSON) each, target count, per target: type (o|d),
 * channel, ready-at ms ('' = now), item count, (event id, body number)…, suppressed count, (channel, n)…
 * Each body is sent once however many targets share it: a fan-out to a thousand subscribers' outboxes
 * names an event's body a thousand times, not its JSON.
 * The snapshot is compared by its `at` field, never by decoding JSON, and only for equality: the hosts'
 * clocks may disagree, so a newer `at` from a host behind is still a valid successor of the one it read.
 * Returns 1 written, 0 lost the race.
 * Mute-suppressed counts may count an event twice if a failed commit is replayed (a statistic only).
 */
const COMMIT_SCRIPT = `${TRIM_SEEN}${MARK_WORK}${RAISE_MARK_LUA}
local stored = redis.call('HGET', KEYS[1], 'at') or ''
if stored ~= ARGV[1] then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local k = 7
local a = 10
local events = tonumber(ARGV[a]); a = a + 1
-- Exact trims (no '~'): an approximate one keeps whole stream nodes, so the streams' ceiling would be
-- the node size's, not eventsKept's; a stream of a few hundred entries trims one entry per add.
-- A logged id's score is Redis' ms times 1,000 plus its place in the commit, and above every score already
-- there (two commits in one millisecond), so the trim by rank drops the oldest first, in logged order.
for i = 1, events do
  redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', (now - tonumber(ARGV[7])) * 1000)
  local score = now * 1000 + math.min(i, 999)
  local top = redis.call('ZRANGE', KEYS[k], -1, -1, 'WITHSCORES')[2]
  if top and tonumber(top) >= score then score = tonumber(top) + 1 end
  if redis.call('ZADD', KEYS[k], 'NX', score, ARGV[a]) == 1 then
    redis.call('ZREMRANGEBYRANK', KEYS[k], 0, -(tonumber(ARGV[6]) + 1))
    redis.call('XADD', KEYS[k + 1], 'MAXLEN', ARGV[4], '*', 'event', ARGV[a + 1], 'routes', ARGV[a + 2])
    redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[5], '*', 'event', ARGV[a + 1], 'routes', ARGV[a + 2])
  end
  k = k + 2; a = a + 3
end
local bodies = tonumber(ARGV[a])
local body0 = a
a = a + bodies + 1
local targets = tonumber(ARGV[a]); a = a + 1
for i = 1, targets do
  local kind, channel, ready, items = ARGV[a], ARGV[a + 1], ARGV[a + 2], tonumber(ARGV[a + 3])
  a = a + 4
  redis.call('ZREMRANGEBYSCORE', KEYS[k + 2], '-inf', now - tonumber(ARGV[7]))
  local added = 0
  for j = 1, items do
    local id, json = ARGV[a], ARGV[body0 + tonumber(ARGV[a + 1])]
    a = a + 2
    if redis.call('ZADD', KEYS[k + 2], 'NX', now, id) == 1 then
      added = added + 1
      if kind == 'd' then
        redis.call('HSET', KEYS[k], id, json)
      else
        redis.call('HSET', KEYS[k + 1], id, json)
        redis.call('ZADD', KEYS[k], ready == '' and now or tonumber(ready), id)
      end
    end
  end
  if added > 0 then
    trim_seen(KEYS[k + 2])
    if kind == 'd' then redis.call('HSETNX', KEYS[k + 1], 'firstStagedAt', ARGV[2]) end
    if kind == 'o' then
      mark_work(KEYS[6], channel)
      redis.call('PUBLISH', ARGV[8], channel)
    end
  end
  k = k + 3
end
local suppressed = tonumber(ARGV[a]); a = a + 1
for i = 1, suppressed do
  redis.call('HINCRBY', KEYS[3], ARGV[a], ARGV[a + 1])
  a = a + 2
end
-- Last: Redis does not roll a script back when a command fails midway, so the snapshot advances only
-- once everything before it was written. A failed commit is replayed, and the dedupe above drops the
-- items it had already written. (test/e2e/delivery-kill-points.test.ts finds this script by that sentence.)
redis.call('HSET', KEYS[1], 'at', ARGV[2], 'json', ARGV[3])
redis.call('SADD', KEYS[4], ARGV[9])
raise_mark(KEYS[5], now)
return 1
`;

/** One event as the log keeps it: the event and where routing sent it. */
export interface LoggedEvent {
  event: PositionEvent;
  routes: RouteVerdict[];
}

/** Events bound for one channel's outbox (send now, or at `readyAt` after quiet hours) or digest. */
export interface CommitTarget {
  type: 'outbox' | 'digest';
  channel: string;
  /** Epoch ms from which an outbox item may be sent; null: now. */
  readyAt: number | null;
  events: PositionEvent[];
}

/** Everything one poll writes, in one atomic step. */
export interface PollCommit {
  snapshot: Snapshot;
  /** The stored snapshot's `polledAt` this poll diffed against; null: none was stored. */
  expectedPolledAt: string | null;
  logged: LoggedEvent[];
  targets: CommitTarget[];
  suppressed: Array<{ channel: string; count: number }>;
  /** Events kept per issuer in the log; 0 turns the log off. */
  eventsKept: number;
  /**
   * Where the snapshot lives and the set that records it was written: a register source's own keys
   * (state/keys.ts `register`); absent, the upstream issuer's `snapshot` and `baselined`.
   */
  store?: { snapshot: string; written: string; member: string };
}

/** The JSON of an outbox item holding one event. */
export function eventItem(event: PositionEvent): string {
  return JSON.stringify({ v: RECORD_VERSION, kind: 'event', event });
}

/**
 * The item bodies of a commit's targets, each once: an outbox item (the event in its record) or a digest
 * staging entry (the event alone), numbered from 1 in the order first needed. Keyed by the event object,
 * not its id: routing hands every target of an event the same object, and one changed on its way to a
 * channel gets a body of its own.
 */
function itemBodies(targets: readonly CommitTarget[]) {
  const numbers = { outbox: new Map<PositionEvent, number>(), digest: new Map<PositionEvent, number>() };
  const list: string[] = [];
  for (const target of targets)
    for (const event of target.events) {
      const seen = numbers[target.type];
      if (seen.has(event)) continue;
      list.push(target.type === 'outbox' ? eventItem(event) : JSON.stringify(event));
      seen.set(event, list.length);
    }
  return {
    list,
    number: (type: CommitTarget['type'], event: PositionEvent) => numbers[type].get(event) ?? 0,
  };
}

/**
 * Writes a poll's snapshot, event log entries, outbox items and digest staging together, or nothing when
 * the snapshot moved since the poll read it (a replay, or a concurrent poll). True when written.
 */
export async function commitPoll(redis: RedisClient, root: string, commit: PollCommit): Promise<boolean> {
  const snapshot = snapshotSchema.parse(commit.snapshot);
  const keys = stateKeys(root);
  const logged = commit.eventsKept > 0 ? commit.logged : [];
  const store = commit.store ?? {
    snapshot: keys.snapshot(snapshot.issuerId),
    written: keys.baselined,
    member: snapshot.issuerId,
  };
  const keyList = [
    store.snapshot,
    keys.events,
    keys.muteSuppressed,
    store.written,
    keys.stateMark,
    keys.subscriberOutboxesWithWork,
  ];
  const args: Array<string | number> = [
    commit.expectedPolledAt ?? '',
    snapshot.polledAt,
    JSON.stringify(snapshot),
    commit.eventsKept,
    commit.eventsKept * GLOBAL_EVENTS_FACTOR,
    commit.eventsKept * EVENTS_LOGGED_FACTOR,
    DEDUPE_MEMORY_MS,
    keys.outboxWake,
    store.member,
    logged.length,
  ];
  for (const { event, routes } of logged) {
    keyList.push(keys.eventsLogged(event.issuer.id), keys.issuerEvents(event.issuer.id));
    args.push(event.id, JSON.stringify(event), JSON.stringify(routes));
  }
  const bodies = itemBodies(commit.targets);
  args.push(bodies.list.length, ...bodies.list, commit.targets.length);
  for (const target of commit.targets) {
    const box = keys.outbox(target.channel);
    if (target.type === 'outbox') keyList.push(box.pending, box.items, box.seen);
    else keyList.push(box.digestStaged, box.digestMeta, box.seen);
    args.push(
      target.type === 'outbox' ? 'o' : 'd',
      target.channel,
      target.readyAt ?? '',
      target.events.length,
    );
    for (const event of target.events) args.push(event.id, bodies.number(target.type, event));
  }
  args.push(commit.suppressed.length);
  for (const { channel, count } of commit.suppressed) args.push(channel, count);
  const reply = await redis.eval(COMMIT_SCRIPT, keyList.length, ...keyList, ...args);
  return z.union([z.literal(0), z.literal(1)]).parse(reply) === 1;
}
