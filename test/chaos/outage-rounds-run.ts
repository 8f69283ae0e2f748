// Issue 29's twenty rounds of each fault, outside the suite (it takes about an hour):
//   npx tsx test/chaos/outage-rounds-run.ts [--rounds 20] [--seed 29] [--faults outage15,outage30,freeze15,failover10] [--logs DIR]
// `failover10` runs in a world of its own, on a private Sentinel whose sentinels call the master down after
// 10 s (so the promotion takes 10 s or more).
// Prints one line per round and a summary; exits 1 when any round saw a repeat, a loss, a parked message or
// did not settle. With --logs, a failed round writes what it missed and both daemons' logs to DIR.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import compileCli from '../helpers/compiled-cli.js';
import {
  type Fault,
  type OutageTopology,
  type OutageWorld,
  type RoundResult,
  runRound,
  startOutageWorld,
} from './outage-rounds.js';

/** Each fault and the world it runs in (one world per topology, shared by its faults). */
const FAULTS: Record<string, { fault: Fault; world: 'proxy' | 'sentinel' }> = {
  outage15: { fault: { kind: 'outage', ms: 15_000 }, world: 'proxy' },
  outage30: { fault: { kind: 'outage', ms: 30_000 }, world: 'proxy' },
  freeze15: { fault: { kind: 'freeze', ms: 15_000 }, world: 'proxy' },
  failover10: { fault: { kind: 'failover' }, world: 'sentinel' },
};

const TOPOLOGIES: Record<'proxy' | 'sentinel', OutageTopology> = {
  proxy: { kind: 'proxy' },
  sentinel: { kind: 'sentinel', downAfterMs: 10_000 },
};

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    seed: { type: 'string', default: '29' },
    faults: { type: 'string', default: Object.keys(FAULTS).join(',') },
    logs: { type: 'string' },
  },
});

const clean = (r: RoundResult) =>
  r.missing.length === 0 &&
  r.slackRepeats.length === 0 &&
  r.mailRepeats.length === 0 &&
  r.parked === 0 &&
  r.stuck === undefined;

async function main(): Promise<number> {
  await compileCli();
  const rounds = Number(values.rounds);
  const faults = (values.faults ?? '').split(',').map((name) => {
    const known = FAULTS[name];
    if (!known) throw new Error(`unknown fault ${name}; known: ${Object.keys(FAULTS).join(', ')}`);
    return [name, known] as const;
  });
  const worlds = new Map<'proxy' | 'sentinel', OutageWorld>();
  const results: Array<[string, RoundResult]> = [];
  try {
    for (const [, { world }] of faults) {
      if (!worlds.has(world))
        worlds.set(world, await startOutageWorld(Number(values.seed), TOPOLOGIES[world]));
    }
    for (let round = 1; round <= rounds; round++) {
      for (const [name, { fault, world: kind }] of faults) {
        const world = worlds.get(kind);
        if (!world) throw new Error(`no ${kind} world`);
        const started = Date.now();
        const result = await runRound(world, fault);
        results.push([name, result]);
        const promotion =
          result.promotionMs === undefined
            ? ''
            : `, promoted after ${(result.promotionMs / 1000).toFixed(1)} s`;
        console.log(
          `round ${round} ${name}: ${clean(result) ? 'ok' : 'FAILED'}; slack lines ${result.received}/${result.expected}, e-mails ${result.mails}, repeats ${result.slackRepeats.length + result.mailRepeats.length}, missing ${result.missing.length}, parked ${result.parked}, restarts ${result.restarts}, records held up ${result.heldRecords}${promotion}, ${Math.round((Date.now() - started) / 1000)} s${result.stuck ? `; did not settle: ${result.stuck}` : ''}`,
        );
        if (!clean(result) && values.logs) {
          mkdirSync(values.logs, { recursive: true });
          const base = join(values.logs, `round-${round}-${name}`);
          writeFileSync(`${base}.json`, JSON.stringify(result, null, 2));
          for (const member of world.members) writeFileSync(`${base}-${member.role}.log`, member.logs());
          if (world.sentinel) {
            const topology = world.sentinel.sentinels.map((s, i) => `--- sentinel ${i}\n${s.output()}`);
            writeFileSync(`${base}-sentinels.log`, topology.join('\n'));
          }
        }
      }
    }
  } finally {
    for (const world of worlds.values()) await world.close();
  }
  for (const name of new Set(results.map(([n]) => n))) {
    const mine = results.filter(([n]) => n === name).map(([, r]) => r);
    console.log(`${name}: ${mine.filter(clean).length}/${mine.length} rounds clean`);
  }
  return results.every(([, r]) => clean(r)) ? 0 : 1;
}

process.exitCode = await main();
