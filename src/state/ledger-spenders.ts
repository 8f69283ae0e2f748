import { z } from 'zod';
import { ledgerKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

/**
 * How long after its last beat a process still counts as spending the budget: six beats of 10 s, so one
 * slow beat is not a leave, and a process that died without a word stops counting within a minute.
 */
export const SPENDER_GONE_AFTER_MS = 60_000;

// One script per beat, on Redis' clock (hosts' clocks may disagree): record this process, drop those gone
// quiet, keep the hash alive a while past the last beat (no deployment owns the ledger to delete it), and
// return the deployments still beating. With an empty ARGV[1] it writes nothing and returns the same
// (`status` and the console: a reader must not need write access to the ledger).
// KEYS: the spenders hash (a ledger key only). ARGV: field of this process or '', gone-after ms.
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

/**
 * Which deployments spend one credential's budget: each daemon process says so at every beat, under its
 * deployment's prefix. The upstream's caps are the credential's, so a deployment that finds another one
 * here knows its plan's bounds cannot hold (each plans as if the whole plan were its own).
 */
export class LedgerSpenders {
  readonly #redis: RedisClient;
  readonly #key: string;

  /** `ledger` is the tagged root of the credential's ledger (state/keys.ts `ledgerRoot`). */
  constructor(redis: RedisClient, ledger: string) {
    this.#redis = redis;
    this.#key = ledgerKeys(ledger).spenders;
  }

  /** Records a beat of process `processId` of deployment `deployment`; returns every deployment still beating. */
  async beat(deployment: string, processId: string): Promise<string[]> {
    return this.#run(fieldOf(deployment, processId));
  }

  /** Every deployment with a process beating, sorted. */
  async deployments(): Promise<string[]> {
    return this.#run('');
  }

  /** A process that stops says so at once, rather than counting until it is gone quiet. */
  async leave(deployment: string, processId: string): Promise<void> {
    await this.#redis.hdel(this.#key, fieldOf(deployment, processId));
  }

  async #run(field: string): Promise<string[]> {
    const reply = fields.parse(
      await this.#redis.eval(SPENDERS_SCRIPT, 1, this.#key, field, SPENDER_GONE_AFTER_MS),
    );
    return [...new Set(reply.map(deploymentOf))].sort();
  }
}

// A deployment is its `redis.prefix`: letters, digits, _ and - only, so the first space ends it.
function fieldOf(deployment: string, processId: string): string {
  return `${deployment} ${processId}`;
}

function deploymentOf(field: string): string {
  const space = field.indexOf(' ');
  return space < 0 ? field : field.slice(0, space);
}
