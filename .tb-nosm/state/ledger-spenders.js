import { z } from "zod";
import { ledgerKeys } from "./keys.js";
const SPENDER_GONE_AFTER_MS = 6e4;
const SPENDERS_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local goneAfter = tonumber(ARGV[2])
if ARGV[1] ~= '' then
  redis.call('HSET', KEYS[1], ARGV[1], now)
  redis.call('PEXPIRE', KEYS[1], goneAfter * 2)
end
local live = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if now - tonumber(all[i + 1]) > goneAfter then
    if ARGV[1] ~= '' then redis.call('HDEL', KEYS[1], all[i]) end
  else
    table.insert(live, all[i])
  end
end
return live
`;
const fields = z.array(z.string());
class LedgerSpenders {
  #redis;
  #key;
  /** `ledger` is the tagged root of the credential's ledger (state/keys.ts `ledgerRoot`). */
  constructor(redis, ledger) {
    this.#redis = redis;
    this.#key = ledgerKeys(ledger).spenders;
  }
  /** Records a beat of process `processId` of deployment `deployment`; returns every deployment still beating. */
  async beat(deployment, processId) {
    return this.#run(fieldOf(deployment, processId));
  }
  /** Every deployment with a process beating, sorted. */
  async deployments() {
    return this.#run("");
  }
  /** A process that stops says so at once, rather than counting until it is gone quiet. */
  async leave(deployment, processId) {
    await this.#redis.hdel(this.#key, fieldOf(deployment, processId));
  }
  async #run(field) {
    const reply = fields.parse(
      await this.#redis.eval(SPENDERS_SCRIPT, 1, this.#key, field, SPENDER_GONE_AFTER_MS)
    );
    return [...new Set(reply.map(deploymentOf))].sort();
  }
}
function fieldOf(deployment, processId) {
  return `${deployment} ${processId}`;
}
function deploymentOf(field) {
  const space = field.indexOf(" ");
  return space < 0 ? field : field.slice(0, space);
}
export {
  LedgerSpenders,
  SPENDER_GONE_AFTER_MS
};
