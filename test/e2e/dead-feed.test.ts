import { describe, expect, it } from 'vitest';
import { readiness } from '../../src/ops/status.js';
import { slackText, startStack, usePerTest, waitFor } from './harness.js';

// Issue 22, "a dead feed looks like a quiet day": with the upstream stopped and no ops channel
// configured, /readyz turns not-ready with its reason, and a critical notice reaches the people channels
// (Slack and the immediate e-mail) within the plan's bound, not only the log.

describe('a dead feed is told, not a quiet day (issue 22)', () => {
  const current = usePerTest();

  it('the upstream stops: /readyz not ready, and the desk and the e-mail channel are told', async () => {
    const stack = await startStack({
      issuers: 3,
      seed: 91,
      channels: ['slack', 'email'],
      config: { poll: { gateInterval: '300ms' } },
    });
    current.stack = stack;
    expect(JSON.stringify(stack.configObject)).not.toContain('"ops"');
    const app = await stack.openApp();
    current.app = app;
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
    // Ready before the feed dies, so that "not ready" below is the dead feed's doing. Waited for, not read
    // once: with a 300 ms gate, a busy machine's slow baseline leaves issuers overdue (or the last sweep
    // older than overdueAfter) until the next sweep runs.
    await waitFor('ready on a live feed', async () => (await readiness(app)).ready);

    // The upstream goes dark: every request answers 503 from now on.
    stack.sandbox.faults.inject({ status: 503, times: Number.POSITIVE_INFINITY });
    await waitFor('/readyz not ready', async () => !(await readiness(app)).ready, 30_000);
    const ready = await readiness(app);
    expect(ready.reasons.join('\n')).toContain('no successful sweep');
    await waitFor(
      'the desk told that nothing is polled',
      () =>
        stack.slack
          .delivered()
          .some((post) => /cannot be read: nothing is polled/.test(slackText(post.payload))),
      30_000,
    );
    await waitFor('the e-mail channel told too', () =>
      stack.smtp.mails.some((mail) =>
        /nothing is polled/.test(mail.parsed.subject ?? mail.parsed.text ?? ''),
      ),
    );
  }, 90_000);
});
