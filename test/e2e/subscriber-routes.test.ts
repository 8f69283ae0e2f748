import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import { subscriberChannels } from '../../src/routing/subscriber.js';
import { SlackWebApiStandIn } from '../helpers/slack-web-api-stand-in.js';
import {
  addChannel,
  freePort,
  runShortwatch,
  spawnDaemon,
  startStack,
  updateConfig,
  usePerTest,
  waitFor,
} from './harness.js';

// A subscriber with a personal webhook and a Slack user, beside their e-mail: one change of an issuer
// they follow reaches each route once (their own outboxes, `~<id>`, `~<id>-hook`, `~<id>-dm`), the webhook
// signed as the configured webhook channel signs, the DM sent by the configured slack-app channel's bot
// (a user given by address looked up, one given by id not); a change of another issuer reaches none.

const SECRET = 'subscriber-routes-link-secret-0123456789-ab';
const SIGNING = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const TOKEN = 'xoxb-3232-4545-SubscriberRoutes';
const DESK = 'C0DESKAPP';
const FOLLOWED = 'Followed Change Capital LLP';
const OTHER = 'Unfollowed Change Capital LLP';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver of webhook POSTs on loopback: records each call, answers 200. */
async function startReceiver(): Promise<{ url: string; calls: Received[]; server: Server }> {
  const calls: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, server };
}

const mailTo = (address: string) => (mail: CapturedMail) =>
  mail.parsed.to !== undefined &&
  ('value' in mail.parsed.to ? mail.parsed.to.value : []).some((a) => a.address === address);

describe("subscribers' personal webhook and Slack DM, end to end", () => {
  const current = usePerTest();
  const slack = new SlackWebApiStandIn(TOKEN, [DESK]);
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

  afterEach(async () => {
    await slack.stop();
    await new Promise<void>((resolve) => (receiver ? receiver.server.close(() => resolve()) : resolve()));
  });

  it('one change reaches their e-mail, webhook and DM once each, and nothing of an issuer they do not follow', {
    timeout: 120_000,
  }, async () => {
    const apiUrl = await slack.start();
    slack.scopes = 'chat:write,im:write,users:read,users:read.email';
    slack.users.set('ann.slack@desk.example', 'UANN00001');
    slack.users.set('someone@desk.example', 'UBO000001');
    receiver = await startReceiver();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const stack = await startStack({ issuers: 3, seed: 13 });
    current.stack = stack;
    addChannel(stack, {
      name: 'desk-hook',
      kind: 'webhook',
      url: `${receiver.url}/desk`,
      signingSecret: SIGNING,
    });
    addChannel(stack, { name: 'desk-app', kind: 'slack-app', token: TOKEN, channel: DESK, apiUrl });
    updateConfig(stack, (config) => ({
      ...config,
      http: { port, host: '127.0.0.1' },
      subscribers: {
        email: 'alerts',
        webhook: 'desk-hook',
        slack: 'desk-app',
        linkSecret: SECRET,
        publicUrl: `${base}/`,
      },
    }));
    const [first, second] = stack.sandbox.scenario.issuers();
    if (!first || !second) throw new Error('the scenario has too few issuers');
    const app = await stack.openApp();
    current.app = app;
    current.daemons.push(await spawnDaemon(stack, 'start'));
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length,
    );

    // Added by the CLI while the daemon runs: Ann's Slack user by address, Bo's by id.
    const add = async (name: string, email: string, hook: string, user: string) => {
      const added = await runShortwatch([
        '-c',
        stack.configPath,
        'subscribers',
        'add',
        '--name',
        name,
        '--email',
        email,
        '--issuer',
        first.name,
        '--webhook',
        `${receiver?.url}${hook}`,
        '--slack-user',
        user,
      ]);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain('(and webhook and Slack DM)');
      return /Added subscriber ([a-z0-9]+)/.exec(added.stdout)?.[1] ?? '';
    };
    const ann = await add(
      'Ann Trader',
      'ann@desk.example',
      '/ann?token=ann-secret-7f3e',
      'ann.slack@desk.example',
    );
    const bo = await add('Bo Lund', 'bo@desk.example', '/bo', 'UBO000001');
    const shown = await runShortwatch(['-c', stack.configPath, 'subscribers', 'show', ann]);
    expect(shown.stdout).toContain(`webhook: ${receiver.url}/…`);
    expect(shown.stdout).not.toContain('ann-secret-7f3e');
    expect(shown.stdout).toContain('slack user: ann.slack@desk.example');

    stack.sandbox.scenario.disclose(second.svc_issuer_id, OTHER, 0.9);
    stack.sandbox.scenario.disclose(first.svc_issuer_id, FOLLOWED, 0.8);
    const calls = receiver.calls;
    const to = (path: string) => calls.filter((c) => c.path === path);
    const dms = (user: string) => slack.posted.filter((m) => m.channel === `D${user}`);
    // The configured channels get both changes: once they have, both commits are in.
    await waitFor(
      'both changes at the desk webhook and the desk app',
      () => to('/desk').length === 2 && slack.posted.some((m) => m.channel === DESK),
      30_000,
    );
    await waitFor(
      'every route of Ann and Bo',
      () =>
        stack.smtp.mails.some(mailTo('ann@desk.example')) &&
        stack.smtp.mails.some(mailTo('bo@desk.example')) &&
        to('/ann?token=ann-secret-7f3e').length > 0 &&
        to('/bo').length > 0 &&
        dms('UANN00001').length > 0 &&
        dms('UBO000001').length > 0,
      30_000,
    );
    // Let anything more that was coming arrive: the subscribers' outboxes drained, nothing in flight.
    const theirs = [ann, bo].flatMap((id) => subscriberChannels(id));
    await waitFor('their outboxes drained', async () => {
      const counts = await app.ctx.outbox.queueCounts(theirs);
      return [...counts.values()].every((c) => c.waiting === 0 && c.inflight === 0);
    });

    for (const [who, hook, user] of [
      ['ann@desk.example', '/ann?token=ann-secret-7f3e', 'UANN00001'],
      ['bo@desk.example', '/bo', 'UBO000001'],
    ] as const) {
      const mails = stack.smtp.mails.filter(mailTo(who));
      expect(mails, who).toHaveLength(1);
      expect(mails[0]?.parsed.text ?? '').toContain(FOLLOWED);
      expect(mails[0]?.parsed.text ?? '').not.toContain(OTHER);
      const posts = to(hook);
      expect(posts, hook).toHaveLength(1);
      expect(posts[0]?.body).toContain(FOLLOWED);
      expect(posts[0]?.body).not.toContain(OTHER);
      // Signed as the desk webhook is: the receiver verifies with the channel's key.
      const headers = posts[0]?.headers ?? {};
      const verified = new Webhook(SIGNING).verify(posts[0]?.body ?? '', {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      });
      expect(verified).toBeTruthy();
      const direct = dms(user);
      expect(direct, user).toHaveLength(1);
      expect(JSON.stringify(direct[0])).toContain('Followed Change Capital');
      expect(JSON.stringify(direct[0])).not.toContain('Unfollowed');
    }
    // Ann's user was looked up by address; Bo's id needed no lookup.
    const lookups = slack.calls.filter((c) => c.method === 'users.lookupByEmail');
    expect(lookups.map((c) => c.args.email)).toEqual(['ann.slack@desk.example']);

    // Each route is in the record under its own channel, so the console shows what each received.
    const annPage = await (await fetch(`${base}/subscribers/${ann}`)).text();
    expect(annPage).toContain(`~${ann}-hook`);
    expect(annPage).toContain(`~${ann}-dm`);
    expect(annPage).toContain(`<code>${receiver.url}/…</code>`);
    expect(annPage).not.toContain('ann-secret-7f3e');
    expect(bo).not.toBe('');
  });
});
