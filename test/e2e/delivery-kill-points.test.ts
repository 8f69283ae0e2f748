import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { keyRoot } from '../../src/state/keys.js';
import { CLAIM_SCRIPT, FINISH_SCRIPT } from '../../src/state/outbox-lua.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../chaos/webhook-receiver.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { type DaemonProcess, type Stack, spawnDaemon, startStack, updateConfig, waitFor } from './harness.js';
import { settled } from './settled.js';

/** The event ids in a webhook body (one issuer's events, or a batch of several issuers'). */
function eventIds(body: string): string[] {
  const parsed = JSON.parse(body) as { events?: { id: string }[]; groups?: { events: { id: string }[] }[] };
  return (parsed.events ?? parsed.groups?.flatMap((g) => g.events) ?? []).map((e) => e.id);
}

/** A Lua script by a line only it holds, as MONITOR shows it. */
const SCRIPT = {
  pollCommit: 'Redis does not roll a script back',
  claim: "redis.call('SET', KEYS[2], ARGV[2])",
  finish: 'local claimant = ARGV[7]',
} as const;

type KillPoint = keyof typeof SCRIPT | 'receiver-has-it';

/**
 * SIGKILLs the daemon the moment its Redis runs the given script (MONITOR sees a command as Redis runs
 * it: the write is done, the process has not acted on the reply), or the moment the webhook receiver has
 * the message but has not answered yet (a send that completed on the wire, never marked done).
 */
async function armKill(point: KillPoint, daemon: DaemonProcess, tag: string, hook: WebhookReceiver) {
  if (point === 'receiver-has-it') {
    hook.script({ status: 200, delayMs: 5_000 });
    void waitFor('the receiver to hold the message', () => hook.receipts.length > 0, 30_000, 5).then(() =>
      daemon.kill('SIGKILL'),
    );
    return async () => undefined;
  }
  return watchCommands((line) => {
    if (/^\+\S+ \[[^\]]*\] "eval" /i.test(line) && line.includes(SCRIPT[point]) && line.includes(tag))
      daemon.kill('SIGKILL');
  });
}

/**
 * Every command Redis runs, one MONITOR line each, read from a raw socket: ioredis' own monitor mode can
 * take the lines that arrive in the same packet as MONITOR's OK for replies to no command and throw
 * ("Command queue state error") under load. Returns the disarm.
 */
async function watchCommands(onLine: (line: string) => void): Promise<() => Promise<void>> {
  const url = new URL(TEST_REDIS_URL);
  const socket = connect(Number(url.port || 6379), url.hostname);
  await once(socket, 'connect');
  if (url.password) socket.write(`AUTH ${decodeURIComponent(url.password)}\r\n`);
  socket.write('MONITOR\r\n');
  let pending = '';
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
      onLine(pending.slice(0, end));
      pending = pending.slice(end + 2);
    }
  });
  socket.on('error', () => undefined);
  return async () => {
    socket.destroy();
  };
}

describe('deliveries: the kill points', () => {
  // A marker the script no longer holds would never fire the kill: the test would wait out its timeout.
  it('finds each kill point by a line of its script', () => {
    expect(CLAIM_SCRIPT).toContain(SCRIPT.claim);
    expect(FINISH_SCRIPT).toContain(SCRIPT.finish);
    for (const [point, marker] of Object.entries(SCRIPT)) {
      const holders = [CLAIM_SCRIPT, FINISH_SCRIPT].filter((script) => script.includes(marker));
      expect(holders.length, point).toBeLessThanOrEqual(1);
    }
  });
});

describe('deliveries: SIGKILL at each write point of a poll and of a delivery', () => {
  let stack: Stack;
  let hook: WebhookReceiver;
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    for (const daemon of daemons.splice(0)) {
      daemon.kill('SIGKILL');
      await daemon.exited;
    }
    await hook.close();
    await stack.cleanup();
  });

  it.each<[KillPoint, boolean]>([
    ['pollCommit', false],
    ['claim', false],
    ['receiver-has-it', true],
    ['finish', false],
  ])(
    'killed at %s: no event lost; a repeat only for a completed send, under the same delivery id',
    async (point, repeatAllowed) => {
      stack = await startStack({
        issuers: 4,
        seed: 7,
        channels: [],
        // A poll the kill left active is run again once its lock lapses: 2 s here (30 s by default), so
        // the wait for every poll to be done, before counting, is not a wait for BullMQ's stalled check.
        config: { poll: { gateInterval: '1s', concurrency: 4, lockDuration: '2s' } },
      });
      hook = await startWebhookReceiver();
      updateConfig(stack, (config) => ({
        ...config,
        channels: [
          {
            name: 'hook',
            kind: 'webhook',
            url: hook.url,
            signingSecret: TEST_SIGNING_SECRET,
            backoff: '100ms',
            timeout: '10s',
          },
        ],
      }));
      const observer = await stack.openApp();
      try {
        const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
        const first = await spawnDaemon(stack, 'start');
        daemons.push(first);
        await waitFor(
          'baseline',
          async () => (await observer.ctx.snapshots.getMany(ids)).size === ids.length,
        );

        const disarm = await armKill(point, first, keyRoot(stack.prefix), hook);
        const changes = stack.sandbox.scenario.step();
        expect(changes.length).toBeGreaterThan(0);
        expect(await first.exited).toBe('SIGKILL');
        await disarm();

        daemons.push(await spawnDaemon(stack, 'start'));
        const logged = async () => (await observer.ctx.eventLog.recent({ limit: 500 })).map((e) => e.id);
        await waitFor('every change logged', async () => (await logged()).length >= changes.length, 30_000);
        const expected = new Set(await logged());
        const delivered = () => new Set(hook.accepted().flatMap((r) => eventIds(r.body)));
        await waitFor(
          'every event on the webhook',
          () => [...expected].every((id) => delivered().has(id)),
          30_000,
        );
        // The receiver counts the first POST as delivered at once; the resend waits for the dead
        // process's channel lease to lapse, so wait for it rather than for a later message.
        if (repeatAllowed)
          await waitFor('the completed send sent again', () => hook.repeats().length > 0, 30_000);
        // Nothing pending or in flight is left that could send anything more.
        await settled(stack, { receivers: [() => hook.receipts.length] });

        // Each event in exactly one accepted delivery id; a repeat is the same delivery id sent again.
        const perEvent = new Map<string, Set<string>>();
        for (const receipt of hook.accepted()) {
          for (const id of eventIds(receipt.body)) {
            const ids = perEvent.get(id) ?? new Set<string>();
            ids.add(receipt.deliveryId ?? '?');
            perEvent.set(id, ids);
          }
        }
        expect([...perEvent.values()].every((deliveries) => deliveries.size === 1)).toBe(true);
        expect(new Set(perEvent.keys())).toEqual(expected);
        const accepted = new Set(hook.accepted().map((r) => r.deliveryId));
        for (const repeat of hook.repeats()) expect(accepted.has(repeat.deliveryId)).toBe(true);
        if (!repeatAllowed) expect(hook.repeats()).toHaveLength(0);
        // The send had completed when the process died: exactly that message comes again, same id.
        else expect(hook.repeats()).toHaveLength(1);
      } finally {
        await observer.stop(2_000);
      }
    },
    90_000,
  );
});
