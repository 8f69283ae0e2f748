// Issue 30's full count of failovers to a stale replica: five with one process and four with two
// (`start` + `worker`), each with redis.durability's WAIT on and off, on a private Sentinel
// (test/e2e/ha-stale-replica.ts). The suite plays one round of two of these cases; this plays them all
// and prints each round's figures.
// Run: npx tsx scripts/stale-replica-rounds.ts [rounds-1 rounds-2] [--only on-1,on-2,off-1,off-2] [--logs DIR]
// `--only` plays the named cases alone; `--logs` writes each case's daemon logs to DIR (on failure they
// are written to a temp dir anyway, and the path printed).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { endStaleRun, playStaleRounds, type StaleMode, type StaleRun } from '../test/e2e/ha-stale-replica.js';
import compileCli from '../test/helpers/compiled-cli.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { only: { type: 'string' }, logs: { type: 'string' } },
});
const [one = 5, two = 4] = positionals.map(Number);
const caseName = (mode: Omit<StaleMode, 'rounds'>) => `${mode.wait ? 'on' : 'off'}-${mode.processes}`;
const only = values.only?.split(',');
const modes: StaleMode[] = [
  { wait: true, processes: 1 as const, rounds: one },
  { wait: true, processes: 2 as const, rounds: two },
  { wait: false, processes: 1 as const, rounds: one },
  { wait: false, processes: 2 as const, rounds: two },
].filter((mode) => !only || only.includes(caseName(mode)));

// The daemons run compiled, as in the suite: through tsx each would take twice the CPU on a busy machine.
await compileCli();

/** Writes the case's daemon logs (stdout and stderr of each) to `dir`; returns the dir. */
function keepLogs(
  run: StaleRun,
  name: string,
  dir = values.logs ?? mkdtempSync(join(tmpdir(), 'stale-logs-')),
) {
  mkdirSync(dir, { recursive: true });
  run.daemons.forEach((daemon, i) => {
    writeFileSync(join(dir, `${name}-${i}.out.log`), daemon.stdout());
    writeFileSync(join(dir, `${name}-${i}.err.log`), daemon.stderr());
  });
  return dir;
}

let failed = false;
for (const mode of modes) {
  const run: StaleRun = { daemons: [] };
  const name = `WAIT ${mode.wait ? 'on ' : 'off'}, ${mode.processes} process${mode.processes === 1 ? '' : 'es'}`;
  const startedAt = Date.now();
  try {
    const rounds = await playStaleRounds(mode, run);
    const repeats = rounds.map((r) => r.repeatedMessages);
    const told = rounds.filter((r) => r.rollbackTold).length;
    const behind = rounds.reduce((sum, r) => sum + r.pollingBehindTold, 0);
    const ok = (mode.wait ? repeats.every((n) => n <= 1) : told === rounds.length) && behind === 0;
    failed ||= !ok;
    if (values.logs || !ok) keepLogs(run, caseName(mode));
    process.stdout.write(
      `${ok ? 'ok  ' : 'FAIL'} ${name}: ${rounds.length} failovers in ${Math.round((Date.now() - startedAt) / 1_000)} s; repeated messages per failover ${JSON.stringify(repeats)} (same delivery id ${JSON.stringify(rounds.map((r) => r.sameIdResends))}); rollback told ${told}/${rounds.length}; false "Polling is behind" ${behind}; events per round ${JSON.stringify(rounds.map((r) => r.events))}; last event told after the promotion (ms) ${JSON.stringify(rounds.map((r) => r.toldAfterPromotionMs))}\n`,
    );
  } catch (error) {
    failed = true;
    const dir = keepLogs(run, caseName(mode));
    process.stdout.write(
      `FAIL ${name}: ${error instanceof Error ? error.message : String(error)} (daemon logs in ${dir})\n`,
    );
  } finally {
    await endStaleRun(run);
  }
}
process.exit(failed ? 1 : 0);
