import { z } from 'zod';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import type { WebhookReceiver } from '../chaos/webhook-receiver.js';
import { type DaemonProcess, type Stack, spawnShortwatch, waitFor } from './harness.js';

// What the HA tests share beyond the topologies: daemons that register through the App's own
// connection (the harness' spawnDaemon reads the shared test Redis), the events a refresh must yield,
// and what the webhook stand-in received of them.

const hookEvent = z.object({
  id: z.string(),
  kind: z.string(),
  holderKey: z.string(),
  issuer: z.object({ id: z.string() }),
});
const hookBody = z.object({
  events: z.array(hookEvent).optional(),
  groups: z.array(z.object({ events: z.array(hookEvent) })).optional(),
});

/** One event as a webhook body carries it: its id and `issuerId|holderKey|kind`. */
export interface HookEvent {
  id: string;
  key: string;
  deliveryId: string | undefined;
}

/** Every event in every POST the receiver accepted (one per delivery id); repeats are left out. */
export function hookEvents(hook: WebhookReceiver): HookEvent[] {
  return hook.accepted().flatMap((receipt) => {
    const body = hookBody.parse(JSON.parse(receipt.body));
    const events = body.events ?? body.groups?.flatMap((g) => g.events) ?? [];
    return events.map((e) => ({
      id: e.id,
      key: `${e.issuer.id}|${e.holderKey}|${e.kind}`,
      deliveryId: receipt.deliveryId,
    }));
  });
}

/** How often each value occurs. */
export function tally(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/**
 * One dataset refresh with at least one change: a scenario step, plus a new holder on an issuer the step
 * left alone (a step may change nothing). Returns the `issuerId|holderKey|kind` of every change.
 */
export function refresh(stack: Stack, label: string): string[] {
  const changes = stack.sandbox.scenario.step();
  const expected = changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`);
  const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
  const quiet = issuers.find((id) => !changes.some((c) => c.issuerId === id)) ?? issuers[0];
  if (quiet === undefined) throw new Error('the sandbox has no issuers');
  const holder = `${label} Capital LLP`;
  stack.sandbox.scenario.disclose(quiet, holder, 0.77);
  expected.push(`${quiet}|${holderKey(holder)}|opened`);
  return expected;
}

/** Starts `shortwatch <role>` on the stack's config and waits until it registered through `app`'s Redis. */
export async function spawnRegistered(
  stack: Stack,
  app: App,
  role: 'start' | 'worker',
  env: NodeJS.ProcessEnv = {},
): Promise<DaemonProcess> {
  const daemon = spawnShortwatch(['-c', stack.configPath, role], env);
  let exited: number | string | undefined;
  void daemon.exited.then((code) => {
    exited = code;
  });
  await waitFor(
    `shortwatch ${role} (pid ${daemon.child.pid}) to register`,
    async () => {
      if (exited !== undefined)
        throw new Error(`shortwatch ${role} exited with ${exited}:\n${daemon.stderr()}`);
      const fields = await app.redis.hkeys(stack.keys.workers);
      return fields.some((field) => field.includes(`-${daemon.child.pid}-`));
    },
    30_000,
  );
  return daemon;
}

/** Kills every daemon still running (SIGKILL) and waits for each to exit. */
export async function killAll(daemons: DaemonProcess[]): Promise<void> {
  for (const daemon of daemons.splice(0)) {
    daemon.kill('SIGKILL');
    await daemon.exited;
  }
}

/** Waits until the webhook carried every expected event key. */
export async function waitForEvents(hook: WebhookReceiver, expected: readonly string[], timeoutMs = 60_000) {
  await waitFor(
    `${expected.length} events on the webhook`,
    () => {
      const got = new Set(hookEvents(hook).map((e) => e.key));
      return expected.every((key) => got.has(key));
    },
    timeoutMs,
    200,
  );
}
