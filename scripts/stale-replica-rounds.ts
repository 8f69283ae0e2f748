// Issue 30's full count of failovers to a stale replica: five with one process and four with two
// (`start` + `worker`), each with redis.durability's WAIT on and off, on a private Sentinel
// (test/e2e/ha-stale-replica.ts). The suite plays one round of two of these cases; this plays them all
// and prints each round's figures. Run: npx tsx scripts/stale-replica-rounds.ts [rounds-1 rounds-2]
import { endStaleRun, playStaleRounds, type StaleMode, type StaleRun } from '../test/e2e/ha-stale-replica.js';
import compileCli from '../test/helpers/compiled-cli.js';

// The daemons run compiled, as in the suite: through tsx each would take twice the CPU on a busy machine.
await compileCli();

const [one = 5, two = 4] = process.argv.slice(2).map(Number);
const modes: StaleMode[] = [
  { wait: true, processes: 1, rounds: one },
  { wait: true, processes: 2, rounds: two },
  { wait: false, processes: 1, rounds: one },
  { wait: false, processes: 2, rounds: two },
];

let failed = false;
for (const mode of modes) {
  const run: StaleRun = { daemons: [] };
  const name = `WAIT ${mode.wait ? 'on ' : 'off'}, ${mode.processes} process${mode.processes === 1 ? '' : 'es'}`;
  try {
    const rounds = await playStaleRounds(mode, run);
    const repeats = rounds.map((r) => r.repeatedMessages);
    const told = rounds.filter((r) => r.rollbackTold).length;
    const behind = rounds.reduce((sum, r) => sum + r.pollingBehindTold, 0);
    const ok = (mode.wait ? repeats.every((n) => n <= 1) : told === rounds.length) && behind === 0;
    failed ||= !ok;
    process.stdout.write(
      `${ok ? 'ok  ' : 'FAIL'} ${name}: ${rounds.length} failovers; repeated messages per failover ${JSON.stringify(repeats)} (same delivery id ${JSON.stringify(rounds.map((r) => r.sameIdResends))}); rollback told ${told}/${rounds.length}; false "Polling is behind" ${behind}; events per round ${JSON.stringify(rounds.map((r) => r.events))}; last event told after the promotion (ms) ${JSON.stringify(rounds.map((r) => r.toldAfterPromotionMs))}\n`,
    );
  } catch (error) {
    failed = true;
    process.stdout.write(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    await endStaleRun(run);
  }
}
process.exit(failed ? 1 : 0);
