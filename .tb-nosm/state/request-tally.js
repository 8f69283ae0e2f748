import { ledgerKeys } from "./keys.js";
const REQUEST_PURPOSES = [
  "issuer-list",
  "poll",
  "history",
  "probe",
  "interactive"
];
const COUNT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local start = now - (now % tonumber(ARGV[1]))
if tonumber(redis.call('HGET', KEYS[1], 'window') or '-1') ~= start then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'window', start)
end
redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
redis.call('PEXPIRE', KEYS[1], start + 2 * tonumber(ARGV[1]) - now)
return 1
`;
class RequestTally {
  #redis;
  #key;
  /** `ledger` is the tagged root of the credential's ledger (state/keys.ts `ledgerRoot`). */
  constructor(redis, ledger) {
    this.#redis = redis;
    this.#key = ledgerKeys(ledger).requestTally;
  }
  /** Counts one call in the day window that holds Redis' time now. */
  async count(purpose, dayMs) {
    await this.#redis.eval(COUNT_SCRIPT, 1, this.#key, dayMs, purpose);
  }
  /** The counts of the window starting at `windowStart` (Redis' clock); zeros when none was counted in it. */
  async read(windowStart) {
    const raw = await this.#redis.hgetall(this.#key);
    const same = Number(raw.window) === windowStart;
    const n = (purpose) => same ? Number(raw[purpose] ?? 0) || 0 : 0;
    return {
      "issuer-list": n("issuer-list"),
      poll: n("poll"),
      history: n("history"),
      probe: n("probe"),
      interactive: n("interactive")
    };
  }
}
export {
  REQUEST_PURPOSES,
  RequestTally
};
