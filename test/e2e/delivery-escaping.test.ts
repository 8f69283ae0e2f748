import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { type Stack, slackText, startStack, waitFor } from './harness.js';
import { settled } from './settled.js';

const PING = '<!channel>';
const SCRIPT = '<script>alert(1)</script>';
const CRLF_HOLDER = 'Line\r\nBcc: holder@evil.test\r\nBreak Capital';
const CRLF_ISSUER = 'Header\r\nX-Injected: yes\r\nSplit plc';

/** The raw header block of a message, with folded lines joined. */
function rawHeaders(mail: CapturedMail): string[] {
  const raw = mail.raw.toString('utf8');
  const block = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return block.replace(/\r\n[ \t]+/g, ' ').split('\r\n');
}

describe('deliveries: upstream strings are escaped on the way out', () => {
  let stack: Stack;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  it('sends <!channel> and <script> as text to Slack and email, and keeps CR/LF out of headers', async () => {
    stack = await startStack({ issuers: 4, seed: 3 });
    app = await stack.openApp();
    const running = app;
    await running.startDaemon({ workerOnly: false });
    const [pingIssuer = '', scriptIssuer = '', crlfIssuer = ''] = stack.sandbox.scenario
      .issuers()
      .map((i) => i.svc_issuer_id);
    const all = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await running.ctx.snapshots.getMany(all)).size === all.length,
    );

    stack.sandbox.scenario.addIssuer({ svc_issuer_id: crlfIssuer, name: CRLF_ISSUER });
    stack.sandbox.scenario.disclose(pingIssuer, PING, 0.7);
    stack.sandbox.scenario.disclose(scriptIssuer, SCRIPT, 0.8);
    stack.sandbox.scenario.disclose(crlfIssuer, CRLF_HOLDER, 0.9);
    await waitFor('three Slack messages', () => stack.slack.delivered().length >= 3);
    await waitFor('three emails', () => stack.smtp.mails.length >= 3);
    await settled(stack);
    expect(stack.slack.delivered()).toHaveLength(3);
    expect(stack.smtp.mails).toHaveLength(3);

    // Slack: every string of every payload, the `text` fallback and the blocks alike.
    const payloads = stack.slack.delivered().map((p) => slackText(p.payload));
    const ping = payloads.find((t) => t.includes(`${pingIssuer} · `)) ?? '';
    const script = payloads.find((t) => t.includes(`${scriptIssuer} · `)) ?? '';
    expect(ping).toContain('&lt;!channel&gt;');
    expect(script).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    for (const text of payloads) {
      expect(text).not.toMatch(/<!(channel|here|everyone)/);
      expect(text).not.toContain('<script');
    }

    // Email: HTML escaped, plain text as is, headers from data on one line.
    const mailFor = (issuerId: string) => {
      const mail = stack.smtp.mails.find((m) => (m.parsed.text ?? '').includes(`issuer ${issuerId}`));
      if (!mail) throw new Error(`no email for ${issuerId}`);
      return mail;
    };
    const pingMail = mailFor(pingIssuer);
    const scriptMail = mailFor(scriptIssuer);
    expect(pingMail.parsed.html).toContain('&lt;!channel&gt;');
    expect(pingMail.parsed.text).toContain(PING);
    expect(scriptMail.parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(scriptMail.parsed.text).toContain(SCRIPT);
    for (const mail of stack.smtp.mails) {
      const html = mail.parsed.html || '';
      expect(html).not.toContain('<!channel>');
      expect(html).not.toContain('<script');
      expect(mail.parsed.subject).not.toMatch(/[\r\n]/);
      expect(mail.parsed.headers.has('x-injected')).toBe(false);
      expect(mail.parsed.bcc).toBeUndefined();
      expect(mail.parsed.to).toMatchObject({ text: 'trader@example.test' });
      const headers = rawHeaders(mail);
      expect(headers.filter((h) => /^(bcc|x-injected):/i.test(h))).toEqual([]);
      expect(headers.filter((h) => /^subject:/i.test(h))).toHaveLength(1);
    }
    const crlfMail = mailFor(crlfIssuer);
    // The subject says what happened on one line, names folded; so does the first line of the body.
    expect(crlfMail.parsed.subject).toBe(
      'Line Bcc: holder@evil.test Break Capital opened 0.90% in Header X-Injected: yes Split plc',
    );
    expect(crlfMail.parsed.text?.split('\n')[0]).toBe(
      'Line Bcc: holder@evil.test Break Capital opened a 0.90% short in Header X-Injected: yes Split plc',
    );
  }, 60_000);
});
