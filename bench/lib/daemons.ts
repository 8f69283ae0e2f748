import type { Redis } from 'ioredis';
import type { Scenario } from '../../src/sandbox/index.js';
import { keyRoot, stateKeys } from '../../src/state/keys.js';
import { SnapshotStore } from '../../src/state/snapshot-store.js';
import { type DaemonProcess, spawnShortwatch, waitFor } from '../../test/e2e/harness.js';

/** `count` shortwatch processes on one config: one `start` (schedulers and workers) and `count - 1` `worker`s. */
export async function startDaemons(
  redis: Redis,
  prefix: string,
  configPath: string,
  count: number,
): Promise<DaemonProcess[]> {
  const processes = [spawnShortwatch(['--config', configPath, 'start'])];
  for (let i = 1; i < count; i++) processes.push(spawnShortwatch(['--config', configPath, 'worker']));
  try {
    // Each process records itself in the workers hash once its workers run.
    await waitFor(
      `${count} shortwatch processes`,
      async () => (await redis.hlen(stateKeys(keyRoot(prefix)).workers)) >= count,
      60_000,
      200,
    );
  } catch (error) {
    await stopDaemons(processes);
    const stderr = processes.map((p) => p.stderr().slice(-2000)).join('\n');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${stderr}`);
  }
  return processes;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when every process has exited. */
export async function stopDaemons(processes: readonly DaemonProcess[], graceMs = 15_000): Promise<void> {
  for (const p of processes) p.kill('SIGTERM');
  await Promise.all(
    processes.map(async (p) => {
      const timer = setTimeout(() => p.kill('SIGKILL'), graceMs);
      await p.exited;
      clearTimeout(timer);
    }),
  );
}

/** How many watched issuers have a snapshot taken at the scenario's current `last_updated`. */
export async function snapshotsAtCurrent(
  redis: Redis,
  prefix: string,
  scenario: Scenario,
  issuerIds: readonly string[],
): Promise<number> {
  const snapshots = await new SnapshotStore(redis, keyRoot(prefix)).getMany(issuerIds);
  const current = scenario.lastUpdated();
  return [...snapshots.values()].filter((snapshot) => snapshot.lastUpdated === current).length;
}
