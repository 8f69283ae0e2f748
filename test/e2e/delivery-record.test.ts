import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createConsole } from '../../src/console/handler.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import { holderKey, holderQueryMatches } from '../../src/positions/index.js';
import { EXPORT_COLUMNS } from '../../src/record/export.js';
import { DeliveryRecord } from '../../src/state/delivery-record.js';
import { stateKeys } from '../../src/state/keys.js';
import { runMain } from '../cli/run-main.js';
import { patchChannel, type Stack, slackIssuers, startStack, updateConfig, waitFor } from './harness.js';
import { settled } from './settled.js';

/** One JSON Lines row of the export, as far as this test reads it. */
interface Row {
  at: string;
  channel: string;
  deliveryId: string;
  messageId?: string;
  issuers: Array<{ id: string; name: string }>;
  holders: string[];
  answer: 'ok' | 'error';
  status?: number;
  cause?: string;
}

function jsonRows(text: string): Row[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Row);
}

/** A word of a holder's name that no other holder's name has: what a desk would type to find it. */
function wordOf(holder: string, others: readonly string[]): string {
  const words = holder.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
  const distinct = words.filter(
    (w) => !others.some((o) => holderKey(o) !== holderKey(holder) && holderQueryMatches(w, o)),
  );
  return (distinct.at(-1) ?? holder).toLowerCase();
}

describe('the record of every message: export and console search after a parked delivery is retried', () => {
  let stack: Stack;
  let app: App | undefined;
  let server: Server | undefined;

  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await app?.stop(2_000);
    app = undefined;
    server = undefined;
    await stack.cleanup();
  });

  it('one row per attempt outcome, the ids receivers saw, and the same rows in the console', async () => {
    stack = await startStack({ issuers: 6, seed: 11, channels: ['slack', 'email'] });
    // Two answers of 500 use up the desk's attempts: its first message parks.
    patchChannel(stack, 'desk', { attempts: 2 });
    // The parked-delivery notice goes to an ops console channel, not (as the fallback would) to the
    // desk and the e-mail channel this test counts.
    updateConfig(stack, (config) => ({
      ...config,
      channels: [
        ...(Array.isArray(config.channels) ? config.channels : []),
        { name: 'ops', kind: 'console' },
      ],
      ops: { channel: 'ops' },
    }));
    app = await stack.openApp();
    // The stream of sent messages versions before the record wrote: a start deletes it (nothing reads it).
    const retired = stateKeys(app.ctx.prefix).retiredDeliveries;
    await app.redis.xadd(retired, '*', 'delivery', '{}');
    const started = await startHttpServer(app, 0, '127.0.0.1', createConsole(app));
    server = started.server;
    const base = `http://127.0.0.1:${started.port}`;
    await app.startDaemon({ workerOnly: false });
    expect(await app.redis.exists(retired)).toBe(0);
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baselines',
      async () => (await app?.ctx.snapshots.getMany(issuers))?.size === issuers.length,
    );

    stack.slack.script({ status: 500, body: 'rollup_error' }, { status: 500, body: 'rollup_error' });
    const changed = new Set(stack.sandbox.scenario.step().map((c) => c.issuerId));
    const parked = async () => (await app?.ctx.outbox.parked('desk')) ?? [];
    await waitFor('a parked desk delivery', async () => (await parked()).length === 1);
    const [desk] = await parked();
    if (!desk) throw new Error('no parked message');
    await waitFor('every other desk message', () => stack.slack.delivered().length === changed.size - 1);
    await waitFor('every e-mail', () => stack.smtp.mails.length === changed.size);

    const retry = await runMain(['deliveries', 'retry', '--all', '-c', stack.configPath]);
    expect(retry.code).toBe(0);
    const record = new DeliveryRecord(app.redis, app.ctx.prefix);
    const okRows = async () => {
      const rows = await record.newest(0, Number.MAX_SAFE_INTEGER, 1_000);
      return rows.filter((r) => r.deliveryId === desk.deliveryId && r.answer === 'ok');
    };
    await waitFor('the retried message taken', async () => (await okRows()).length === 1);
    // Every answer is in the record before it is exported: nothing left to send, the stream holds still.
    await settled(stack);

    const jsonl = await runMain([
      'deliveries',
      'export',
      '--since',
      '1d',
      '--format',
      'jsonl',
      '-c',
      stack.configPath,
    ]);
    expect(jsonl.code).toBe(0);
    const rows = jsonRows(jsonl.stdout);
    // One row per answer a receiver gave: every Slack request (errors too), every e-mail.
    expect(rows.filter((r) => r.channel === 'desk')).toHaveLength(stack.slack.posts.length);
    expect(rows.filter((r) => r.channel === 'desk' && r.answer === 'ok')).toHaveLength(changed.size);
    expect(rows.filter((r) => r.channel === 'alerts')).toHaveLength(stack.smtp.mails.length);
    // The parked message: two refusals, then taken after `deliveries retry`, under one delivery id.
    const deskRows = rows.filter((r) => r.deliveryId === desk.deliveryId);
    expect(deskRows.map((r) => [r.answer, r.status ?? null])).toEqual([
      ['error', 500],
      ['error', 500],
      ['ok', null],
    ]);
    const deskIssuer = desk.message.type === 'events' ? desk.message.issuer.id : '';
    expect(deskRows[2]?.issuers.map((i) => i.id)).toEqual([deskIssuer]);
    expect(slackIssuers(stack.slack.delivered().at(-1)?.payload)).toEqual([deskIssuer]);
    // The ids each mail's receiver saw are the record's.
    const mailRows = rows.filter((r) => r.channel === 'alerts');
    const seen = stack.smtp.mails.map((m) => [
      m.parsed.messageId,
      m.parsed.headers.get('x-shortwatch-delivery'),
    ]);
    expect(mailRows.map((r) => [r.messageId, r.deliveryId]).sort()).toEqual(seen.sort());

    const csv = await runMain([
      'deliveries',
      'export',
      '--since',
      '1d',
      '--channel',
      'desk',
      '-c',
      stack.configPath,
    ]);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(lines.filter((l) => l.includes(desk.deliveryId))).toHaveLength(3);
    expect(lines.filter((l) => l !== '').length - 1).toBe(stack.slack.posts.length);

    // The console's search by a word of one holder's name finds the rows the CLI exports for it.
    const holderName = deskRows[0]?.holders[0] ?? '';
    const snapshot = await app.ctx.snapshots.get(deskIssuer);
    const listed = Object.values(snapshot?.positions ?? {}).map((p) => p.holder);
    const holder = wordOf(holderName, [...listed, ...rows.flatMap((r) => r.holders)]);
    // In this process, one at a time: the same `main` the binary runs, without a child's start-up.
    const [byHolder, routed] = [
      await runMain([
        'deliveries',
        'export',
        '--since',
        '1d',
        '--holder',
        holder,
        '--format',
        'jsonl',
        '-c',
        stack.configPath,
      ]),
      await runMain([
        'route',
        '--issuer',
        deskIssuer,
        '--holder',
        holder,
        '--kind',
        'increased',
        '--value',
        '9',
        '-c',
        stack.configPath,
      ]),
    ];
    const cliRows = jsonRows(byHolder.stdout);
    // `route` reads the typed word as the issuer's holder it matches, as the searches do.
    expect(routed.code, routed.stderr).toBe(0);
    expect(routed.stdout).toContain(`Holder "${holder}" read as ${holderName}.`);
    expect(cliRows.map((r) => r.deliveryId)).toContain(desk.deliveryId);
    const query = `holder=${encodeURIComponent(holder)}&from=1d`;
    const download = await fetch(`${base}/deliveries/export?format=jsonl&${query}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(
      /attachment; filename="shortwatch-deliveries-.*\.jsonl"/,
    );
    expect(jsonRows(await download.text())).toEqual(cliRows);
    const page = await (await fetch(`${base}/deliveries?${query}`)).text();
    const shown = [...page.matchAll(/<tr data-delivery="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(shown)).toEqual(new Set(cliRows.map((r) => r.deliveryId)));
    // The retried message shows all three attempts, not the last round's one.
    const deskRow =
      new RegExp(`<tr data-delivery="${desk.deliveryId}">[\\s\\S]*?</tr>`).exec(page)?.[0] ?? '';
    expect(deskRow).toMatch(/<td class="num">3<\/td><td><ul class="lines">/);

    // The events page reads the same record: each event of the retried message was delivered under its
    // delivery id after the three attempts the export lists, at the time its `ok` row was recorded.
    const events = await (await fetch(`${base}/events?issuer=${encodeURIComponent(deskIssuer)}`)).text();
    const deskLines = [...events.matchAll(/<li><strong>desk<\/strong>[\s\S]*?<\/li>/g)].map((m) => m[0]);
    expect(deskLines.length).toBeGreaterThanOrEqual(desk.eventIds.length);
    const retriedLines = deskLines.filter((line) => line.includes(`(${desk.deliveryId})`));
    expect(retriedLines).toHaveLength(desk.eventIds.length);
    for (const line of retriedLines) expect(line).toContain('delivered');
    for (const line of retriedLines) expect(line).toContain('after 3 attempts');
    const [okRow] = await okRows();
    expect(okRow?.eventIds).toEqual(desk.eventIds);
  }, 60_000);
});
