import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import {
  type DaemonProcess,
  logLines,
  runShortwatch,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from './harness.js';

// Every secret carries the marker, and nothing else the test writes does: one search finds any of them.
const MARKER = 'SWSECRET';
const API_KEY = `sk-live-${MARKER}-7f3a9c1e5d`;
const SLACK_PATH = `/services/T0${MARKER}/B0${MARKER}/xox${MARKER}token9b8c7d`;
const OPS_PATH = `/services/T0${MARKER}/B0OPS/xox${MARKER}opstoken`;
const SMTP_PASS = `smtp-${MARKER}-pass-4242`;

describe('secrets never appear in logs or CLI output', () => {
  let stack: Stack;
  let app: App | undefined;
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    await stopDaemons(daemons.splice(0));
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  it('a debug-level run through a 401, a Slack 404 echoing the URL and SMTP failures prints none', async () => {
    stack = await startStack({
      issuers: 4,
      seed: 61,
      channels: ['slack', 'email', 'ops'],
      sandbox: { keys: { valid: [API_KEY] } },
    });
    const origin = new URL(stack.slack.url).origin;
    updateConfig(stack, (config) => {
      const upstream = typeof config.upstream === 'object' && config.upstream !== null ? config.upstream : {};
      const channels = (Array.isArray(config.channels) ? config.channels : []).map((channel: unknown) => {
        if (typeof channel !== 'object' || channel === null || !('name' in channel)) return channel;
        if (channel.name === 'desk') return { ...channel, webhookUrl: `${origin}${SLACK_PATH}` };
        if (channel.name === 'ops') {
          return { ...channel, webhookUrl: `${origin}${OPS_PATH}`, filter: { minValue: 100 } };
        }
        return { ...channel, attempts: 3, auth: { user: 'mailer', pass: SMTP_PASS } };
      });
      return {
        ...config,
        upstream: { ...upstream, apiKey: API_KEY },
        channels,
        log: { level: 'debug', format: 'json' },
      };
    });
    const outputs: string[] = [];
    const cli = async (...args: string[]) => {
      const run = await runShortwatch(['-c', stack.configPath, ...args]);
      outputs.push(run.stdout, run.stderr);
      return run;
    };

    // `check` verifies the key, the Slack URLs and SMTP with its credentials.
    const check = await cli('check');
    expect(check.code, check.stderr).toBe(0);
    app = await stack.openApp();
    const daemon = await spawnDaemon(stack, 'start');
    daemons.push(daemon);
    const { scenario, faults } = stack.sandbox;
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await app?.ctx.snapshots.getMany(ids))?.size === ids.length,
    );

    // A 401 episode: access revoked (a notice), then resumed by an operator (a second notice).
    faults.inject({ operation: 'issuers', status: 401 });
    await waitFor('access revoked', async () => (await app?.ctx.access.get())?.state === 'unauthorized');
    const resumed = await cli('resume');
    expect(resumed.stdout).toContain('Upstream access marked ok');
    await waitFor(
      'both notices on the ops channel',
      () => stack.slack.delivered().filter((p) => p.path === OPS_PATH).length === 2,
    );

    // A Slack 404 whose body echoes the webhook path (a proxy's error page), then two SMTP failures:
    // a temporary one (retried) and a permanent one that quotes the password back.
    stack.slack.script({ status: 404, body: `<html>404: no route for POST ${SLACK_PATH}</html>` });
    stack.smtp.script(
      { responseCode: 451, message: '4.3.0 Temporary failure, try again' },
      { responseCode: 550, message: `5.7.1 Rejected for mailer/${SMTP_PASS}` },
    );
    const [first, second] = ids;
    if (!first || !second) throw new Error('scenario too small');
    scenario.disclose(first, 'Secret Test Capital', 0.8);
    scenario.disclose(second, 'Secret Test Capital', 0.9);
    const parked = async (channel: string) => (await app?.ctx.outbox.parked(channel))?.length;
    await waitFor('a parked desk delivery', async () => (await parked('desk')) === 1);
    await waitFor('a parked email', async () => (await parked('alerts')) === 1);
    await waitFor('the other email delivered', () => stack.smtp.mails.length === 1);
    expect(stack.sandbox.stats.count({ status: 401 })).toBeGreaterThanOrEqual(1);

    for (const args of [['status', '--json'], ['status'], ['deliveries', '--failed'], ['events', '--json']]) {
      const run = await cli(...args);
      expect(run.code, run.stderr).toBe(0);
    }
    const failed = outputs.at(-4) ?? '';
    expect(failed).toContain('no route for POST [redacted]');

    await stopDaemons(daemons.splice(0));
    outputs.push(daemon.stdout(), daemon.stderr());

    // The run was really verbose, went through the failures, and had secrets to hide.
    const lines = logLines(daemon.stderr());
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.some((line) => String(line.msg).includes('Upstream access revoked'))).toBe(true);
    expect(lines.some((line) => String(line.msg).includes('delivery parked'))).toBe(true);
    const all = outputs.join('\n');
    expect(all).toContain('[redacted]');
    for (const [n, line] of all.split('\n').entries()) {
      expect(line.includes(MARKER), `output line ${n}: ${line}`).toBe(false);
    }
    // The Slack messages (notices quote errors) and the emails leave the process too: no secret there either.
    for (const post of stack.slack.posts) expect(JSON.stringify(post.payload)).not.toContain(MARKER);
    for (const mail of stack.smtp.mails) expect(mail.raw.toString('utf8')).not.toContain(MARKER);
  }, 60_000);
});
