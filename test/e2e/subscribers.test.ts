import { describe, expect, it } from 'vitest';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { signLink } from '../../src/routing/subscriber-links.js';
import { freePort, runShortwatch, spawnDaemon, startStack, usePerTest, waitFor } from './harness.js';

const SECRET = 'test-link-secret-0123456789-abcdefghijklmnop';

const to = (mail: CapturedMail) =>
  mail.parsed.to && ('value' in mail.parsed.to ? mail.parsed.to.value : []).map((a) => a.address).join(',');
const toAnn = (mail: CapturedMail) => to(mail) === 'ann@desk.example';
const toBo = (mail: CapturedMail) => to(mail) === 'bo@desk.example';
const isDigest = (mail: CapturedMail) => (mail.parsed.subject ?? '').startsWith('Short positions digest');
const text = (mail: CapturedMail) => mail.parsed.text ?? '';
/** A header's raw value (mailparser folds the List-* headers into one object). */
const header = (mail: CapturedMail, name: string) =>
  mail.parsed.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '') ?? '';

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
    redirect: 'manual',
  });
  return { status: response.status, body: await response.text() };
}

describe('subscribers: a trader managed at runtime, end to end', () => {
  const current = usePerTest();

  it('gets their issuers only, edits through the signed link, and one-click leaves', {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const stack = await startStack({
      issuers: 4,
      seed: 11,
      config: {
        http: { port, host: '127.0.0.1' },
        subscribers: { email: 'alerts', linkSecret: SECRET, publicUrl: `${base}/` },
      },
    });
    current.stack = stack;
    const [first, second] = stack.sandbox.scenario.issuers();
    if (!first || !second) throw new Error('the scenario has too few issuers');
    current.daemons.push(await spawnDaemon(stack, 'start'));
    await waitFor(
      'baseline snapshots',
      async () => (await stack.redis.redis.keys(`${stack.keys.snapshot('*')}`)).length === 4,
    );

    // Added while the daemon runs, following the first issuer by name.
    const added = await runShortwatch([
      '-c',
      stack.configPath,
      'subscribers',
      'add',
      '--name',
      'Ann Trader',
      '--email',
      'ann@desk.example',
      '--issuer',
      first.name,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const id = /Added subscriber ([a-z0-9]+)/.exec(added.stdout)?.[1] ?? '';
    // Bo wants both: each change at once, and a digest on his own schedule (every 2 s, so the test sees one).
    const bo = await runShortwatch([
      '-c',
      stack.configPath,
      'subscribers',
      'add',
      '--name',
      'Bo Digest',
      '--email',
      'bo@desk.example',
      '--issuer',
      first.name,
      '--mode',
      'both',
      '--digest',
      '*/2 * * * * *',
    ]);
    expect(bo.code, bo.stderr).toBe(0);

    stack.sandbox.scenario.disclose(second.svc_issuer_id, 'Elsewhere Capital LLP', 0.9);
    stack.sandbox.scenario.disclose(first.svc_issuer_id, 'Ann Watches Capital LLP', 0.8);
    await waitFor(
      'the desk e-mails of both changes',
      () => stack.smtp.mails.filter((m) => to(m) === 'trader@example.test').length >= 2,
    );
    await waitFor("Ann's e-mail", () => stack.smtp.mails.some(toAnn));
    const ann = stack.smtp.mails.filter(toAnn);
    expect(ann).toHaveLength(1);
    const mail = ann[0] as CapturedMail;
    expect(text(mail)).toContain('Ann Watches Capital');
    expect(text(mail)).not.toContain('Elsewhere Capital');
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /<([^>]+)>/.exec(header(mail, 'list-unsubscribe'))?.[1] ?? '';
    const manage = /Manage my alerts: (\S+)/.exec(text(mail))?.[1] ?? '';
    expect(unsubscribe).toMatch(`${base}/unsubscribe/`);
    expect(manage).toMatch(`${base}/me/`);

    // Bo's digest: sealed by his schedule's job, sent through the same pool, with his own links.
    await waitFor("Bo's immediate e-mail and his digest", () => {
      const mails = stack.smtp.mails.filter(toBo);
      return mails.some(isDigest) && mails.some((m) => !isDigest(m));
    });
    const digests = stack.smtp.mails.filter((m) => toBo(m) && isDigest(m));
    expect(digests).toHaveLength(1);
    const digest = digests[0] as CapturedMail;
    expect(text(digest)).toContain('Ann Watches Capital');
    expect(text(digest)).not.toContain('Elsewhere Capital');
    expect(header(digest, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(stack.smtp.mails.filter((m) => toBo(m) && !isDigest(m))).toHaveLength(1);

    // The preference page: adds the second issuer, from the page itself.
    const page = await fetch(manage);
    expect(page.status).toBe(200);
    const version = /name="version" value="(\d+)"/.exec(await page.text())?.[1] ?? '';
    const saved = await post(
      manage,
      `version=${version}&issuers=${encodeURIComponent(`${first.name}\n${second.svc_issuer_id}`)}&aggregates=1&mode=immediate`,
      { origin: base },
    );
    expect(saved.status, saved.body).toBe(200);
    stack.sandbox.scenario.disclose(second.svc_issuer_id, 'Now Followed Partners', 0.7);
    await waitFor("Ann's second e-mail", () => stack.smtp.mails.filter(toAnn).length === 2);
    expect(text(stack.smtp.mails.filter(toAnn)[1] as CapturedMail)).toContain('Now Followed Partners');

    // A GET shows a confirmation and changes nothing; tampered and expired links are refused.
    const shown = await fetch(unsubscribe);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Unsubscribe');
    const tampered = unsubscribe.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await post(tampered, 'List-Unsubscribe=One-Click')).status).toBe(403);
    const expired = signLink(SECRET, {
      subscriberId: id,
      generation: 0,
      purpose: 'unsubscribe',
      expiresAt: Date.now() - 1_000,
    });
    const refused = await post(`${base}/unsubscribe/${expired}`, 'List-Unsubscribe=One-Click');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('expired');
    const shownAfter = await runShortwatch(['-c', stack.configPath, 'subscribers', 'show', id]);
    expect(shownAfter.stdout).toContain('active');

    // One-click: a mail client's POST, no Origin. Their mail stops; the desk's goes on.
    expect((await post(unsubscribe, 'List-Unsubscribe=One-Click')).status).toBe(200);
    const desk = stack.smtp.mails.filter((m) => to(m) === 'trader@example.test').length;
    stack.sandbox.scenario.disclose(first.svc_issuer_id, 'After Leaving Capital', 1.1);
    await waitFor(
      'the desk e-mail after the unsubscribe',
      () => stack.smtp.mails.filter((m) => to(m) === 'trader@example.test').length > desk,
    );
    expect(stack.smtp.mails.filter(toAnn)).toHaveLength(2);
    const audit = await runShortwatch(['-c', stack.configPath, 'subscribers', 'show', id]);
    expect(audit.stdout).toMatch(/unsubscribed \(v\d+\) by ann@desk\.example via one-click/);

    // `status` and `/metrics` sum the subscribers and their outboxes (one series, not one per subscriber).
    const status = await runShortwatch(['-c', stack.configPath, 'status']);
    expect(status.stdout).toContain('Subscribers: 2 (1 active, 0 paused, 1 unsubscribed; 1 on a digest)');
    expect(status.stdout).toMatch(/^Subscriber outboxes: \d+ with work; .* 0 parked/m);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^shortwatch_subscribers\{state="unsubscribed"\} 1$/m);
    expect(metrics).toMatch(/^shortwatch_subscribers\{state="digest"\} 1$/m);
    expect(metrics).toMatch(/^shortwatch_subscriber_outbox_items\{state="parked"\} 0$/m);
    expect(metrics).toMatch(/^shortwatch_deliveries_total\{channel="subscribers",outcome="sent"\} [1-9]/m);
    expect(metrics).not.toContain(`channel="~`);
  });
});
