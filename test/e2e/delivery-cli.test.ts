import { afterEach, describe, expect, it } from 'vitest';
import { freePort, patchChannel, runShortwatch, type Stack, slackText, startStack } from './harness.js';

const TEST_MARK = 'shortwatch test message — not a real alert';

describe('deliveries: test-notify and check, from the CLI', () => {
  let stack: Stack;

  afterEach(async () => {
    await stack.cleanup();
  });

  it('check --offline verifies both channels and sends nothing anywhere', async () => {
    stack = await startStack({ issuers: 2 });
    const ok = await runShortwatch(['check', '-c', stack.configPath, '--offline']);
    expect(ok.code).toBe(0);
    // Each host reached (DNS, TCP; TLS for https) without a request, and the SMTP server verified.
    expect(ok.stdout).toMatch(
      /^ok {4}channel desk: webhook http:\/\/127\.0\.0\.1:\d+\/\[redacted\]; 127\.0\.0\.1:\d+ reached$/m,
    );
    expect(ok.stdout).toContain(
      `ok    channel alerts: SMTP ${stack.smtp.host}:${stack.smtp.port} ok; ${stack.smtp.host}:${stack.smtp.port} reached`,
    );
    expect(ok.stdout).not.toContain('FAIL');
    expect(ok.stdout).not.toContain('/services/T000');
    expect(stack.slack.posts).toHaveLength(0);
    expect(stack.smtp.mails).toHaveLength(0);
    expect(stack.sandbox.stats.count()).toBe(0);

    // The verification is real: an SMTP server that is not there, and a webhook that is not https, fail.
    patchChannel(stack, 'alerts', { port: await freePort() });
    patchChannel(stack, 'desk', { webhookUrl: 'http://hooks.example.test/services/T000/B000/x' });
    const failed = await runShortwatch(['check', '-c', stack.configPath, '--offline']);
    // A webhook URL that is not https is a config problem (issue 22: one validation for check and start).
    expect(failed.code).toBe(2);
    expect(failed.stdout).toMatch(/^FAIL {2}channel desk: .*must use https/m);
    expect(failed.stdout).toMatch(
      /^FAIL {2}channel alerts: TCP connect to 127\.0\.0\.1:\d+ refused: nothing listens there \(ECONNREFUSED\)$/m,
    );
    expect(stack.slack.posts).toHaveLength(0);
    expect(stack.smtp.mails).toHaveLength(0);
    expect(stack.sandbox.stats.count()).toBe(0);

    // A well-formed Slack URL whose host does not resolve is a runtime failure (exit 1) naming the
    // step that failed and the host, never the URL's secret path (issue 31: check said `ok` before).
    patchChannel(stack, 'alerts', { port: stack.smtp.port });
    patchChannel(stack, 'desk', { webhookUrl: 'https://hooks.example.test/services/T000/B000/XXXX' });
    const unresolved = await runShortwatch(['check', '-c', stack.configPath, '--offline']);
    expect(unresolved.code, unresolved.stdout).toBe(1);
    expect(unresolved.stdout).toMatch(
      /^FAIL {2}channel desk: hooks\.example\.test does not resolve \(ENOTFOUND\)$/m,
    );
    expect(unresolved.stdout).toMatch(/^ok {4}channel alerts: /m);
    expect(unresolved.stdout).not.toMatch(/T000|XXXX/);
  }, 90_000);

  it('test-notify sends one clearly marked sample to the named channel only', async () => {
    stack = await startStack({ issuers: 2 });
    const [slack, email, unknown] = await Promise.all(
      ['desk', 'alerts', 'nowhere'].map((channel) =>
        runShortwatch(['test-notify', channel, '-c', stack.configPath]),
      ),
    );
    expect(slack?.code).toBe(0);
    expect(slack?.stdout).toContain('Sent a test message to desk (slack)');
    expect(stack.slack.posts).toHaveLength(1);
    const payload = stack.slack.delivered()[0]?.payload;
    expect(slackText(payload)).toContain(TEST_MARK);
    expect(slackText(payload)).toContain('nothing needs doing');

    expect(email?.code).toBe(0);
    expect(email?.stdout).toContain('Sent a test message to alerts (email)');
    expect(stack.smtp.mails).toHaveLength(1);
    const [mail] = stack.smtp.mails;
    expect(mail?.parsed.subject).toBe(TEST_MARK);
    expect(mail?.parsed.text).toContain('It is not a real alert');
    expect(mail?.parsed.headers.get('x-shortwatch-message')).toBe('test');

    expect(unknown?.code).not.toBe(0);
    expect(unknown?.stderr).toContain('no channel named "nowhere"');
    // No upstream request was needed for any of it.
    expect(stack.sandbox.stats.count()).toBe(0);
  }, 60_000);
});
