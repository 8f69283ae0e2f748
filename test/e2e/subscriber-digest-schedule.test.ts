import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { subscriberDigestSchedulerId } from '../../src/jobs/subscriber-digest.js';
import { manageLink } from '../../src/routing/subscriber-links.js';
import { freePort, runShortwatch, spawnDaemon, startStack, usePerTest, waitFor } from './harness.js';

// A subscriber moves their digest's schedule and time zone on their own preference page while the
// daemon runs: a bad cron or time zone is refused whole (nothing saved), a good one is stored, the
// daemon's job scheduler follows it, and their next digest comes on the new schedule.

const SECRET = 'digest-schedule-link-secret-0123456789-abc';
const YEARLY = '0 7 1 1 *';
const EVERY_2S = '*/2 * * * * *';

const toBo = (mail: CapturedMail) => mail.raw.includes('bo@desk.example');
const isDigest = (mail: CapturedMail) => (mail.parsed.subject ?? '').startsWith('Short positions digest');

async function post(url: string, fields: Record<string, string>, origin: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: await response.text() };
}

describe("a subscriber's digest schedule and time zone, edited on their preference page", () => {
  const current = usePerTest();

  it('refuses a bad cron or time zone with a clear message, and a good one moves their next digest', {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const stack = await startStack({
      issuers: 2,
      seed: 5,
      config: {
        http: { port, host: '127.0.0.1' },
        subscribers: { email: 'alerts', linkSecret: SECRET, publicUrl: `${base}/` },
      },
    });
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    const [first] = stack.sandbox.scenario.issuers();
    if (!first) throw new Error('the scenario has no issuer');
    current.daemons.push(await spawnDaemon(stack, 'start'));
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length,
    );

    const bo = await app.ctx.subscribers.add(
      {
        name: 'Bo Digest',
        email: 'bo@desk.example',
        watch: { issuers: [first.name] },
        prefs: { mode: 'digest', digestSchedule: YEARLY, timezone: 'UTC' },
      },
      { who: 'desk-lead', via: 'cli' },
    );
    const schedulers = async () =>
      new Map((await app.queues.digest.getJobSchedulers(0, -1)).map((s) => [s.id ?? s.key, s]));
    const yearly = subscriberDigestSchedulerId({ pattern: YEARLY, timezone: 'UTC' });
    await waitFor("the daemon's scheduler of Bo's yearly digest", async () =>
      (await schedulers()).has(yearly),
    );

    const link = manageLink(app.settings.config, bo, new Date()) ?? '';
    const page = await (await fetch(link)).text();
    expect(page).toContain(`name="digestSchedule" value="${YEARLY}"`);
    expect(page).toContain('name="timezone" value="UTC"');
    expect(page).toMatch(/Next digest: Fri, 1 Jan 2027, 07:00 \(UTC\)/);
    const form = {
      version: String(bo.version),
      issuers: first.name,
      aggregates: '1',
      mode: 'digest',
      digestSchedule: EVERY_2S,
      timezone: 'America/New_York',
    };

    // A cron the scheduler cannot read, a time zone no one has: refused whole, the form kept as typed.
    const badCron = await post(
      link,
      { ...form, digestSchedule: '61 7 * * *', issuers: 'Typed But Not Saved' },
      base,
    );
    expect(badCron.status).toBe(400);
    expect(badCron.body).toContain('Digest schedule &quot;61 7 * * *&quot; cannot be used:');
    expect(badCron.body).toContain('Nothing was saved.');
    expect(badCron.body).toContain('Typed But Not Saved</textarea>');
    const badZone = await post(link, { ...form, timezone: 'Mars/Olympus_Mons' }, base);
    expect(badZone.status).toBe(400);
    expect(badZone.body).toContain('Time zone &quot;Mars/Olympus_Mons&quot; is not one shortwatch knows');
    const unchanged = await app.ctx.subscribers.get(bo.id);
    expect(unchanged?.version).toBe(bo.version);
    expect(unchanged?.prefs).toMatchObject({ digestSchedule: YEARLY, timezone: 'UTC' });
    expect(unchanged?.watch.issuers).toEqual([first.name]);

    // A good one: stored, the scheduler moves to it, and the yearly one is gone.
    const saved = await post(link, form, base);
    expect(saved.status, saved.body).toBe(200);
    expect(saved.body).toContain('Saved');
    expect(saved.body).toContain('(America/New_York)');
    const stored = await app.ctx.subscribers.get(bo.id);
    expect(stored?.prefs).toMatchObject({ digestSchedule: EVERY_2S, timezone: 'America/New_York' });
    expect((await app.ctx.subscribers.audit(bo.id, 1))[0]).toMatchObject({
      action: 'edited',
      via: 'link',
      who: 'bo@desk.example',
      changed: ['prefs.digestSchedule', 'prefs.timezone'],
    });
    const moved = subscriberDigestSchedulerId({ pattern: EVERY_2S, timezone: 'America/New_York' });
    const scheduler = await waitFor("the daemon's scheduler moved to Bo's new schedule", async () => {
      const now = await schedulers();
      return !now.has(yearly) && now.get(moved);
    });
    expect(scheduler).toMatchObject({ pattern: EVERY_2S, tz: 'America/New_York' });

    // An import is refused the same pattern, by its row (it used to store it, and the scheduler then skipped it).
    const csv = join(mkdtempSync(join(tmpdir(), 'shortwatch-digest-')), 'desk.csv');
    writeFileSync(csv, 'name,email,mode,digestSchedule\nCy Typo,cy@desk.example,digest,61 7 * * *\n');
    const imported = await runShortwatch(['-c', stack.configPath, 'subscribers', 'import', csv]);
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain('row 2: prefs.digestSchedule: "61 7 * * *"');
    expect(await app.ctx.subscribers.byEmail('cy@desk.example')).toBeUndefined();

    // The next change of Bo's issuer reaches him in a digest on the new schedule (not next January).
    stack.sandbox.scenario.disclose(first.svc_issuer_id, 'Bo Digest Capital LLP', 0.8);
    await waitFor(
      "Bo's digest on the new schedule",
      () => stack.smtp.mails.some((m) => toBo(m) && isDigest(m)),
      30_000,
    );
    const digest = stack.smtp.mails.find((m) => toBo(m) && isDigest(m));
    expect(digest?.parsed.text ?? '').toContain('Bo Digest Capital');
    expect(stack.smtp.mails.filter((m) => toBo(m) && !isDigest(m))).toHaveLength(0);
  });
});
