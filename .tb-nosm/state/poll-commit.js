import { z } from "zod";
import { snapshotSchema } from "../positions/schemas.js";
import { stateKeys } from "./keys.js";
import { MARK_WORK, TRIM_SEEN } from "./outbox-lua.js";
import { RECORD_VERSION } from "./outbox-records.js";
import { DEDUPE_MEMORY_MS, EVENT_SEEN_TTL_SECONDS, GLOBAL_EVENTS_FACTOR } from "./retention.js";
import { RAISE_MARK_LUA } from "./state-mark.js";
const COMMIT_SCRIPT = `${TRIM_SEEN}${MARK_WORK}${RAISE_MARK_LUA}
local stored = redis.call('HGET', KEYS[1], 'at') or ''
if stored ~= ARGV[1] then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local k = 7
local a = 10
local events = tonumber(ARGV[a]); a = a + 1
for i = 1, events do
  if redis.call('SET', KEYS[k], '1', 'NX', 'EX', ARGV[6]) then
    redis.call('XADD', KEYS[k + 1], 'MAXLEN', '~', ARGV[4], '*', 'event', ARGV[a], 'routes', ARGV[a + 1])
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'event', ARGV[a], 'routes', ARGV[a + 1])
  end
  k = k + 2; a = a + 2
end
local targets = tonumber(ARGV[a]); a = a + 1
for i = 1, targets do
  local kind, channel, ready, items = ARGV[a], ARGV[a + 1], ARGV[a + 2], tonumber(ARGV[a + 3])
  a = a + 4
  redis.call('ZREMRANGEBYSCORE', KEYS[k + 2], '-inf', now - tonumber(ARGV[7]))
  local added = 0
  for j = 1, items do
    local id, json = ARGV[a], ARGV[a + 1]
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
function eventItem(event) {
  return JSON.stringify({ v: RECORD_VERSION, kind: "event", event });
}
async function commitPoll(redis, root, commit) {
  const snapshot = snapshotSchema.parse(commit.snapshot);
  const keys = stateKeys(root);
  const logged = commit.eventsKept > 0 ? commit.logged : [];
  const store = commit.store ?? {
    snapshot: keys.snapshot(snapshot.issuerId),
    written: keys.baselined,
    member: snapshot.issuerId
  };
  const keyList = [
    store.snapshot,
    keys.events,
    keys.muteSuppressed,
    store.written,
    keys.stateMark,
    keys.subscriberOutboxesWithWork
  ];
  const args = [
    commit.expectedPolledAt ?? "",
    snapshot.polledAt,
    JSON.stringify(snapshot),
    commit.eventsKept,
    commit.eventsKept * GLOBAL_EVENTS_FACTOR,
    EVENT_SEEN_TTL_SECONDS,
    DEDUPE_MEMORY_MS,
    keys.outboxWake,
    store.member,
    logged.length
  ];
  for (const { event, routes } of logged) {
    keyList.push(keys.eventSeen(event.id), keys.issuerEvents(event.issuer.id));
    args.push(JSON.stringify(event), JSON.stringify(routes));
  }
  args.push(commit.targets.length);
  for (const target of commit.targets) {
    const box = keys.outbox(target.channel);
    if (target.type === "outbox") keyList.push(box.pending, box.items, box.seen);
    else keyList.push(box.digestStaged, box.digestMeta, box.seen);
    args.push(
      target.type === "outbox" ? "o" : "d",
      target.channel,
      target.readyAt ?? "",
      target.events.length
    );
    for (const event of target.events) {
      args.push(event.id, target.type === "outbox" ? eventItem(event) : JSON.stringify(event));
    }
  }
  args.push(commit.suppressed.length);
  for (const { channel, count } of commit.suppressed) args.push(channel, count);
  const reply = await redis.eval(COMMIT_SCRIPT, keyList.length, ...keyList, ...args);
  return z.union([z.literal(0), z.literal(1)]).parse(reply) === 1;
}
export {
  commitPoll,
  eventItem
};
