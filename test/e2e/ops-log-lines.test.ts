import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { captureLog, LEVEL } from '../helpers/log-capture.js';
import { startStack, usePerTest, waitFor } from './harness.js';

// Issue 22: a routine upstream error was logged as a 25-line stack trace at warn level. At warn, a poll
// that meets a 500 is one line naming the issuer and the cause; stacks are for `log.level: debug`.
describe('routine failures log one line, stacks at debug only', () => {
  const current = usePerTest();

  async function pollAgainst500(level: string) {
    const stack = await startStack({ issuers: 1, seed: 91, channels: ['slack'] });
    current.stack = stack;
    const log = captureLog([], level);
    const app = await App.open(parseConfig(stringify(stack.configObject), stack.configPath), {
      logger: log.logger,
    });
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const [issuer] = stack.sandbox.scenario.issuers();
    if (!issuer) throw new Error('the scenario has no issuer');
    await waitFor('the baseline', async () => (await app.ctx.snapshots.get(issuer.svc_issuer_id)) !== null);
    stack.sandbox.faults.inject({ operation: 'positions', status: 500, times: Number.POSITIVE_INFINITY });
    stack.sandbox.scenario.disclose(issuer.svc_issuer_id, 'Log Line Capital LLP', 0.8);
    await waitFor('a failed poll logged', () => log.withMessage('poll failed').length > 0);
    return { log, issuerId: issuer.svc_issuer_id };
  }

  it('at warn: one line per failed poll, with issuer and cause, and no stack anywhere', async () => {
    const { log, issuerId } = await pollAgainst500('warn');
    const [line] = log.withMessage('poll failed');
    expect(line).toMatchObject({ level: LEVEL.warn, issuerId, cause: 'server' });
    // The next try is on the line itself: an instant after the failure.
    expect(Date.parse(String(line?.nextTry))).toBeGreaterThan(Date.parse(String(line?.time ?? 0)));
    expect(JSON.stringify(line)).toContain('500');
    // Every line is one JSON line (lines() parses each), and none carries a stack.
    expect(log.lines().length).toBeGreaterThan(0);
    expect(log.text()).not.toContain('"stack"');
    expect(log.text()).not.toMatch(/\n\s+at /);
    // The job's own failure is not a second warn line for the same poll.
    expect(log.lines().filter((l) => l.msg.startsWith('job failed') && l.level >= LEVEL.warn)).toEqual([]);
  }, 60_000);

  it('at debug: the stack is there for whoever asks for it', async () => {
    const { log } = await pollAgainst500('debug');
    const [line] = log.withMessage('poll failed');
    expect(JSON.stringify(line)).toContain('"stack"');
  }, 60_000);
});
