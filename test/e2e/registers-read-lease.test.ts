import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { runRegisterPoll } from '../../src/jobs/registers/register-poll.js';
import { holderKey } from '../../src/positions/index.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { slackText, startStack, usePerTest, waitFor } from './harness.js';
import { AFM_FIXTURE, afmChanged } from './register-changes.js';
import { startRegisterServer } from './register-server.js';

/**
 * Issue 28: one read of a source at a time across processes. Two processes (two Apps on one Redis, each
 * with its own connections and process id) reading the same register version at once make one request
 * and commit once; the validators saved are those of that read, so the next read is a 304.
 */
describe('the register read lease', () => {
  const current = usePerTest();

  it('two processes reading one register version at once: one reads and commits, the other is busy', async () => {
    const server = await startRegisterServer();
    server.serve('/afm.csv', registerBytes(AFM_FIXTURE));
    const stack = await startStack({
      issuers: 1,
      channels: ['slack'],
      // Read once as the daemon starts (the silent baseline), then only when the test asks.
      config: {
        sources: [{ name: 'afm', kind: 'afm-current', url: server.url('/afm.csv'), interval: '1h' }],
      },
    });
    current.stack = stack;
    const first = await stack.openApp();
    current.app = first;
    let second: App | undefined;
    try {
      await first.startDaemon({ workerOnly: false });
      const store = new RegisterStore(first.redis, first.ctx.prefix);
      await waitFor('the baseline read', async () => (await store.health('afm'))?.status === 'read');
      second = await stack.openApp();
      expect(second.ctx.processId).not.toBe(first.ctx.processId);
      const events = async () =>
        (await first.ctx.eventLog.recent({ limit: 100 })).map(
          (e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`,
        );
      expect(await events()).toEqual([]);

      server.serve('/afm.csv', afmChanged());
      const slow = server.hold('/afm.csv');
      const before = server.hits('/afm.csv').all;
      const reads = [first, second].map((app) => runRegisterPoll(app.ctx, { store }, 'afm'));
      // One of them holds the lease and waits for the file; the other is told the source is busy.
      await waitFor('one read waiting for the file', () => slow.waiting() === 1);
      const busy = await Promise.race(reads);
      expect(busy).toEqual({ outcome: 'busy' });
      slow.release();
      const outcomes = await Promise.all(reads);
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['busy', 'read']);
      expect(server.hits('/afm.csv').all - before).toBe(1);
      const expected = [
        `NL0000379121|${holderKey('Marshall Wace LLP')}|increased`,
        `NL0009739416|${holderKey('Citadel Advisors LLC')}|closed`,
      ];
      expect((await events()).sort()).toEqual(expected);

      // The validators kept are the read's: the next read, by either process, is a 304 and tells nothing.
      expect(await runRegisterPoll(second.ctx, { store }, 'afm')).toEqual({ outcome: 'not-modified' });
      expect(server.hits('/afm.csv').notModified).toBeGreaterThan(0);
      const told = () => stack.slack.delivered().map((p) => slackText(p.payload));
      await waitFor('both issuers told', () =>
        ['Randstad', 'PostNL'].every((name) => told().some((text) => text.includes(name))),
      );
      expect((await events()).sort()).toEqual(expected);
      // Each issuer's change reached the desk once.
      for (const name of ['Randstad', 'PostNL'])
        expect(told().filter((text) => text.includes(name))).toHaveLength(1);
    } finally {
      await second?.stop(2_000);
      await server.close();
    }
  }, 30_000);
});
