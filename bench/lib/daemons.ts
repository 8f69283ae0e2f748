import type { Redis } from 'ioredis';
import { stateKeys } from '../../src/jobs/keys.js';
import { snapshotSchema } from '../../src/positions/index.js';
import type { Scenario } from '../../src/sandbox/index.js';
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
      async () => (await redis.hlen(stateKeys(prefix).workers)) >= count,
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
  const raw = await redis.mget(...issuerIds.map((id) => `${prefix}:snapshot:${id}`));
  const current = scenario.lastUpdated();
  return raw.filter((text) => {
    if (text === null) return false;
    const parsed = snapshotSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.lastUpdated === current;
  }).length;
}
