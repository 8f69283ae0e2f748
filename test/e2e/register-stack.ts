import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { type Stack, type StackOptions, slackText, startStack, waitFor } from './harness.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

/** One register source of a register e2e stack: served at `path`, the fixture first. */
export interface ServedSource {
  name: string;
  kind: string;
  path: string;
  fixture: string;
  /** Where the source's second file is served (`aggregateUrl`: Sweden's aggregate beside its positions). */
  aggregatePath?: string;
  /** Served a page at a time to a form POST (KNF's JSON API): `servePaged`. */
  paged?: boolean;
  /** More keys of the source's config (`regimeBoundary`, `aggregates`…). */
  config?: Record<string, unknown>;
}

/** A daemon stack reading registers from a local stand-in, with what the register tests ask of it. */
export interface RegisterStack {
  stack: Stack;
  app: App;
  server: RegisterServer;
  /** The register events of the event log, as `source|issuer|holderKey|kind`, sorted. */
  events(): Promise<string[]>;
  /** Waits until every source answered at least `n` more requests: reads after a change have happened. */
  readsPass(n: number): Promise<void>;
  /** The Slack posts after the first `from`, as text, one string per post. */
  slackSince(from: number): string[];
  /** The e-mails after the first `from`, as subject and text, one string per mail. */
  mailSince(from: number): string[];
  /** The register sources' health and reads, as `status` reads them. */
  store(): RegisterStore;
  close(): Promise<void>;
}

/**
 * One stack (sandbox API of one issuer, Slack stand-in, SMTP server, one in-process daemon) reading
 * every source of `sources` every 500 ms from a local stand-in that serves each fixture; resolves once
 * every source was read once (the silent baseline). `options` adds to the stack's (the bench's limits).
 */
export async function startRegisterStack(
  sources: readonly ServedSource[],
  options: StackOptions = {},
): Promise<RegisterStack> {
  const server = await startRegisterServer();
  for (const source of sources) {
    if (source.paged) server.servePaged(source.path, registerBytes(source.fixture));
    else server.serve(source.path, registerBytes(source.fixture));
  }
  const stack = await startStack({
    issuers: 1,
    ...options,
    config: {
      ...options.config,
      sources: sources.map((s) => ({
        name: s.name,
        kind: s.kind,
        url: server.url(s.path),
        ...(s.aggregatePath === undefined ? {} : { aggregateUrl: server.url(s.aggregatePath) }),
        interval: '500ms',
        ...s.config,
      })),
    },
  });
  const app = await stack.openApp();
  await app.startDaemon({ workerOnly: false });
  const store = () => new RegisterStore(app.redis, app.ctx.prefix);
  // One worker reads the sources one at a time: thirteen (the bench's) take long on a loaded machine.
  await waitFor(
    'every register read once',
    async () => {
      const health = await Promise.all(sources.map((s) => store().health(s.name)));
      return health.every((h) => h?.status === 'read');
    },
    60_000,
  );
  return {
    stack,
    app,
    server,
    store,
    events: async () =>
      (await app.ctx.eventLog.recent({ limit: 500 }))
        .filter((e) => e.source !== undefined)
        .map((e) => `${e.source}|${e.issuer.id}|${e.holderKey}|${e.kind}`)
        .sort(),
    async readsPass(n) {
      const start = sources.map((s) => server.hits(s.path).all);
      await waitFor(`${n} more reads of every register`, () =>
        sources.every((s, i) => server.hits(s.path).all >= (start[i] ?? 0) + n),
      );
    },
    slackSince: (from) =>
      stack.slack
        .delivered()
        .slice(from)
        // Slack's markup escapes `&`, `<` and `>`: read back as the names are written.
        .map((post) =>
          slackText(post.payload).replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'),
        ),
    mailSince: (from) => stack.smtp.mails.slice(from).map((m) => `${m.parsed.subject}\n${m.parsed.text}`),
    async close() {
      await app.stop(2_000);
      await stack.cleanup();
      await server.close();
    },
  };
}

/** One changed issuer's message: the register it names, the issuer, and the line it must hold. */
export interface ToldLine {
  source: string;
  issuer: string;
  line: RegExp;
}

/**
 * Waits for `expected` register events and `messages` Slack posts and e-mails (on a timeout the
 * comparisons say what is missing), then checks each of `told` arrived once per channel, naming its
 * register, with its line.
 */
export async function expectTold(
  registers: RegisterStack,
  expected: readonly string[],
  messages: number,
  told: readonly ToldLine[],
): Promise<void> {
  await waitFor(
    'the register events',
    async () => (await registers.events()).length >= expected.length,
    30_000,
  ).catch(() => undefined);
  expect(await registers.events()).toEqual(expected);
  const { slack, smtp } = registers.stack;
  await waitFor(`${messages} Slack messages`, () => slack.delivered().length >= messages, 30_000).catch(
    () => undefined,
  );
  await waitFor(`${messages} e-mails`, () => smtp.mails.length >= messages, 30_000).catch(() => undefined);
  for (const texts of [registers.slackSince(0), registers.mailSince(0)]) {
    for (const { source, issuer, line } of told) {
      const from = new RegExp(`register ${source}\\b`);
      const about = texts.filter((text) => text.includes(issuer) && from.test(text));
      expect(about, `${source} ${issuer}`).toHaveLength(1);
      expect(about[0], `${source} ${issuer}`).toMatch(line);
    }
  }
}
