/**
 * Every Redis key shortwatch writes, built here and nowhere else. A deployment's keys share one hash tag,
 * `{<redis.prefix>}`, so every Lua script and every BullMQ queue of a deployment lives in one Redis Cluster
 * slot, and two deployments on one Redis (or one cluster) use two tags. The upstream's caps belong to its
 * credential, not to a deployment: the budget's ledger lives under a tag of its own per (base URL, API
 * key), {@link ledgerRoot}, shared by every deployment on that Redis that uses the credential.
 */

/** The hash-tagged root of a deployment's keys: `{shortwatch}` for `redis.prefix: shortwatch`. */
export function keyRoot(prefix: string): string {
  return prefix.startsWith('{') ? prefix : `{${prefix}}`;
}

/** The keys of one deployment; `root` is the tagged root from {@link keyRoot} (or a test's own prefix). */
export function stateKeys(root: string) {
  return {
    /** BullMQ's own prefix: its queues live under the same tag. */
    bull: `${root}:q`,
    directory: `${root}:directory`,
    directoryMeta: `${root}:directory:meta`,
    sweep: `${root}:sweep`,
    /** ZSET `last_updated` (ISO) → epoch ms the gate first saw it: the dataset refreshes (newest 200). */
    refreshes: `${root}:refreshes`,
    /** HASH `last_updated` → epoch ms it happened (as its check could tell), beside `refreshes`. */
    refreshTimes: `${root}:refreshes:at`,
    /** HASH: per-issuer poll health (due since, failure streak, 404 backoff): see state/poll-health.ts. */
    pollHealth: `${root}:poll-health`,
    /** STRING, counter: `closed` events committed for one dataset version across the watchlist. */
    closesInRefresh: (datasetVersion: string) => `${root}:closes:${datasetVersion}`,
    /** HASH issuer id → when its whole list was first seen empty in this dataset version (ms), EX 1 d. */
    emptiedInRefresh: (datasetVersion: string) => `${root}:emptied:${datasetVersion}`,
    /** STRING: the id of this deployment's Redis state; a new id means the state was lost. */
    epoch: `${root}:epoch`,
    /** STRING, PX 5 s, deleted at once: the write `check` and `start` make to prove Redis takes writes. */
    writeProbe: `${root}:write-probe`,
    /** SET: issuers that have had a snapshot in this epoch, to tell a vanished snapshot from a new issuer. */
    baselined: `${root}:baselined`,
    /**
     * HASH `seq`, `at`: the deployment's high-water mark, raised by every poll commit and before every send
     * (state/state-mark.ts); a process that finds it lower than it saw knows Redis lost writes.
     */
    stateMark: `${root}:state-mark`,
    notices: `${root}:notices`,
    workers: `${root}:workers`,
    /** HASH process incarnation → Redis' time of its delivery path's last beat (state/sender-beats.ts). */
    senders: `${root}:senders`,
    /** HASH process id → epoch ms of its last liveness tick: whose probe queue (`live-…`) may be deleted. */
    liveness: `${root}:liveness`,
    access: `${root}:access`,
    accessProbe: `${root}:access:probe`,
    /** SET, PX: fingerprints whose key an interactive command saw refused; the daemon with that key checks. */
    accessConfirm: `${root}:access:confirm`,
    /** STRING: the fingerprint of the ledger this deployment's daemons count in, for commands run without the key. */
    ledger: `${root}:ledger`,
    snapshot: (issuerId: string) => `${root}:snapshot:${issuerId}`,
    pollLease: (issuerId: string) => `${root}:poll-lease:${issuerId}`,
    events: `${root}:events`,
    issuerEvents: (issuerId: string) => `${root}:events:${issuerId}`,
    /**
     * ZSET event id → logged at (Redis ms × 1,000 + its place in its commit): the ids an issuer's stream logged, so a replayed commit logs
     * none twice; kept 30 days and at most `EVENTS_LOGGED_FACTOR` × `poll.eventsKept` (state/retention.ts).
     * Replaces `<t>:event-seen:<event>` (one string per event, 30 days): those expire on their own.
     */
    eventsLogged: (issuerId: string) => `${root}:events-logged:${issuerId}`,
    /** HASH channel name → kind: every channel the deployment ran with (a removed one keeps an outbox). */
    channels: `${root}:channels`,
    mutes: `${root}:mutes`,
    /** STRING, PX: the token fingerprint a console sign-in was made with, by sha256 of the session id. */
    consoleSession: (idHash: string) => `${root}:console:session:${idHash}`,
    /** STRING counter, PX: console sign-in attempts from one client address in the current window. */
    consoleSignIns: (address: string) => `${root}:console:sign-ins:${address}`,
    muteSuppressed: `${root}:mute-suppressed`,
    /** STRING, PX: one entry of a channel's own memory (state/channel-memory.ts), e.g. a Slack thread's parent ts. */
    channelMemory: (channel: string, key: string) => `${root}:channel-memory:${channel}:${key}`,
    /** Pub/sub channel: a channel name is published when its outbox has new work. */
    outboxWake: `${root}:outbox-wake`,
    /**
     * Retired: the capped stream of sent messages that versions before the record wrote (channel, delivery
     * id, event ids, attempts). Nothing writes or reads it; a starting daemon deletes it.
     */
    retiredDeliveries: `${root}:deliveries`,
    /** Stream, one entry per send attempt's answer: the record of every message (state/delivery-record.ts). */
    record: `${root}:record`,
    /** String: the bytes the record's rows hold (their JSON plus a fixed overhead each), for its byte bound. */
    recordBytes: `${root}:record:bytes`,
    outbox: (channel: string) => outboxKeys(root, channel),
    /** HASH subscriber id → subscriber JSON (routing/subscriber.ts): traders managed at runtime. */
    subscribers: `${root}:subscribers`,
    /** HASH lower-cased e-mail → subscriber id: one subscriber per address. */
    subscriberEmails: `${root}:subscribers:by-email`,
    /** SET of subscriber ids following an issuer entry (its id or name, lower-cased): the fan-out index. */
    subscriberIssuerIndex: (entryKey: string) => `${root}:subscribers:issuer:${entryKey}`,
    /** SET of subscriber ids following a holder anywhere: looked at for every event. */
    subscriberHolderWatchers: `${root}:subscribers:holders`,
    /** STRING counter: raised by every subscriber change, so followers re-read only after one. */
    subscribersVersion: `${root}:subscribers:version`,
    /**
     * SET of subscribers' outbox channels (`~<id>`) with work: added by the script that queues the work,
     * removed once the outbox is found empty. What each process's deliverers look at, so a look costs work
     * in proportion to the subscribers with something to send, not to every subscriber.
     */
    subscriberOutboxesWithWork: `${root}:subscribers:outboxes-with-work`,
    /** STREAM, capped: who changed which subscriber, when, from where (the audit trail). */
    subscriberAudit: `${root}:subscribers:audit`,
    /** The keys of one whole-register source (`sources[].name`). */
    register: (source: string) => registerKeys(root, source),
  };
}

/** The keys of one whole-register source: what it read last, its health, one snapshot per issuer. */
export function registerKeys(root: string, source: string) {
  const base = `${root}:register:${source}`;
  return {
    /** HASH `etag`, `lastModified`, `rows`, `at`: the last good read, for the conditional GET and the shrink check. */
    read: `${base}:read`,
    /** HASH `status` (read | not-read), `reason`, `detail`, `at`, `lastGoodAt`, `since`: the source's health. */
    health: `${base}:health`,
    /** HASH `at`, `json` per issuer key (ISIN or `lei:…`): the named positions last read, as the poll commit writes them. */
    snapshot: (issuerKey: string) => `${base}:snapshot:${issuerKey}`,
    /** SET of issuer keys with a snapshot: the issuers a read that lacks them closes. */
    issuers: `${base}:issuers`,
    /** STRING JSON `{ at, snapshot }`: the last good read's issuers and aggregates, for the aggregate diff. */
    last: `${base}:last`,
    /** HASH `fingerprint`, `since`, `text`, `readAgainAt`: a read held back until a confirming read agrees. */
    held: `${base}:held`,
    /** STRING, PX: the process reading the source now (one read of a source at a time). */
    readLease: `${base}:read-lease`,
  };
}

/**
 * The hash-tagged root of the budget's ledger for one upstream credential, `{shortwatch-upstream:<fp>}`,
 * where `fp` is the credential's fingerprint (budget/access-state.ts `accessFingerprint`: a short sha256 of
 * base URL and key, never the key itself). No deployment owns it: every key under it expires on its own.
 */
export function ledgerRoot(fingerprint: string): string {
  return `{shortwatch-upstream:${fingerprint}}`;
}

/**
 * The ledger of one upstream credential: what it spent and whether it is held. Every script that touches
 * one of these keys touches only these, so it runs in the ledger's Cluster slot. `root` is from
 * {@link ledgerRoot} (or a test's own prefix).
 */
export function ledgerKeys(root: string) {
  return {
    /** HASH `start`, `used`: the window of that kind the budget last counted in, by Redis' clock; expires a window after its end. */
    budgetWindow: (window: 'minute' | 'day') => `${root}:budget:${window}`,
    /**
     * HASH `until`, `reason`, `mode` (`timed` | `probe`), and while probing `every`, `window`, `since`,
     * `probeAt`; a timed block expires at its `until`, a probing one a day window after it.
     */
    budgetBlocked: `${root}:budget:blocked`,
    /** HASH `window` (start, Redis' clock) and a count per purpose: upstream calls of the current day window. */
    requestTally: `${root}:requests`,
    /**
     * HASH `<deployment prefix> <process id>` → Redis' time of that process's last beat: who spends the
     * credential's budget; expires a while after the last beat.
     */
    spenders: `${root}:spenders`,
  };
}

/** The outbox of one channel. */
export function outboxKeys(root: string, channel: string) {
  const base = `${root}:outbox:${channel}`;
  return {
    /** ZSET item id → epoch ms from which it may be sent. */
    pending: `${base}:pending`,
    /** HASH item id → item JSON. */
    items: `${base}:items`,
    /** ZSET event id → epoch ms first accepted: the per-(channel, event) dedupe memory. */
    seen: `${base}:seen`,
    /** STRING: the message being sent (claimed items, delivery id, attempts, parts sent). */
    inflight: `${base}:inflight`,
    /** HASH delivery id → parked message JSON: the dead letter. */
    parked: `${base}:parked`,
    /** ZSET delivery id → epoch ms parked: the dead letter's order, to keep its newest `PARKED_KEPT`. */
    parkedOrder: `${base}:parked:order`,
    /** HASH `item:<id>:<ms>` | `inflight:<ms>` → exact bytes of a record that could not be read, set aside. */
    unreadable: `${base}:unreadable`,
    /** STRING, PX: the process draining this channel. */
    lease: `${base}:lease`,
    /** HASH `pausedUntil` (a 429), `lastSentAt` (the rate): shared across lease holders. */
    state: `${base}:state`,
    /** HASH event id → event JSON: the current period of a digest channel. */
    digestStaged: `${base}:digest:staged`,
    /** HASH `firstStagedAt`, `lastDigestAt`. */
    digestMeta: `${base}:digest:meta`,
    /** HASH event id → event JSON: a sealed period waiting in the outbox. */
    digestBatch: (batchId: string) => `${base}:digest:${batchId}`,
  };
}

/** The state keys of one deployment. */
export type StateKeys = ReturnType<typeof stateKeys>;
/** The keys of one upstream credential's ledger. */
export type LedgerKeys = ReturnType<typeof ledgerKeys>;
/** The keys of one channel's outbox. */
export type OutboxKeys = ReturnType<typeof outboxKeys>;
