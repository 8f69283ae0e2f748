// Issue 29's twenty rounds of each fault, outside the suite (it takes about an hour):
//   npx tsx test/chaos/outage-rounds-run.ts [--rounds 20] [--seed 29] [--faults outage15,outage30,freeze15] [--logs DIR]
// Prints one line per round and a summary; exits 1 when any round saw a repeat, a loss, a parked message or
// did not settle. With --logs, a failed round writes what it missed and both daemons' logs to DIR.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import compileCli from '../helpers/compiled-cli.js';
import { type Fault, type RoundResult, runRound, startOutageWorld } from './outage-rounds.js';

const FAULTS: Record<string, Fault> = {
  outage15: { kind: 'outage', ms: 15_000 },
  outage30: { kind: 'outage', ms: 30_000 },
  freeze15: { kind: 'freeze', ms: 15_000 },
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
  const faults = (values.faults ?? '').split(',').map((name) => [name, FAULTS[name]] as const);
  const world = await startOutageWorld(Number(values.seed));
  const results: Array<[string, RoundResult]> = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [name, fault] of faults) {
        if (!fault) throw new Error(`unknown fault ${name}`);
        const started = Date.now();
        const result = await runRound(world, fault);
        results.push([name, result]);
        console.log(
          `round ${round} ${name}: ${clean(result) ? 'ok' : 'FAILED'}; slack lines ${result.received}/${result.expected}, e-mails ${result.mails}, repeats ${result.slackRepeats.length + result.mailRepeats.length}, missing ${result.missing.length}, parked ${result.parked}, restarts ${result.restarts}, ${Math.round((Date.now() - started) / 1000)} s${result.stuck ? `; did not settle: ${result.stuck}` : ''}`,
        );
        if (!clean(result) && values.logs) {
          mkdirSync(values.logs, { recursive: true });
          const base = join(values.logs, `round-${round}-${name}`);
          writeFileSync(`${base}.json`, JSON.stringify(result, null, 2));
          for (const member of world.members) writeFileSync(`${base}-${member.role}.log`, member.logs());
        }
      }
    }
  } finally {
    await world.close();
  }
  for (const name of new Set(results.map(([n]) => n))) {
    const mine = results.filter(([n]) => n === name).map(([, r]) => r);
    console.log(`${name}: ${mine.filter(clean).length}/${mine.length} rounds clean`);
  }
  return results.every(([, r]) => clean(r)) ? 0 : 1;
}

process.exitCode = await main();
