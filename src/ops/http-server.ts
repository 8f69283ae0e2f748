import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHostGate } from '../console/host-gate.js';
import { stateKeys } from '../state/keys.js';
import type { EventLoopDelayReport } from '../telemetry/event-loop-delay.js';
import type { Logger } from '../telemetry/logger.js';
import type { Metrics } from '../telemetry/metrics.js';
import { readiness, type StatusSource } from './status.js';
import { collectSubscribers, type SubscribersStatus } from './subscriber-status.js';
import { type LivenessReport, withLiveness } from './worker-liveness.js';

/**
 * What the ops endpoints read: the state `status` shows, the metrics, the liveness of this process's
 * workers and delivery path.
 */
interface OpsSource extends StatusSource {
  readonly ctx: StatusSource['ctx'] & { logger: Logger };
  readonly metrics: Metrics;
  readonly liveness: LivenessReport | undefined;
  readonly deliveryLiveness: LivenessReport | undefined;
  /** This process's event-loop delays since its daemon started; undefined in a CLI. */
  readonly eventLoopDelay: EventLoopDelayReport | undefined;
}

/** Answers the paths it serves (the web console, src/console/): true when it answered the request. */
interface PathHandler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
}

/** Brings the gauges up to date from Redis just before a scrape, so they are never stale. */
export async function refreshGauges(app: OpsSource): Promise<void> {
  const { metrics, ctx } = app;
  const delay = app.eventLoopDelay;
  if (delay !== undefined) metrics.eventLoopDelayMax.set(delay.maxMs / 1000);
  // Without `upstream` (registers only) there is no budget: its gauges stay unset.
  if (app.settings.config.upstream !== undefined) {
    const usage = await ctx.budget.usage();
    metrics.budgetLeft.set({ window: 'minute' }, usage.minute.left);
    metrics.budgetLeft.set({ window: 'day' }, usage.day.left);
  }
  const lastSweepAt = await ctx.redis.hget(stateKeys(ctx.prefix).sweep, 'lastSweepAt');
  if (lastSweepAt) {
    metrics.lastSweepAt.set(Date.parse(lastSweepAt) / 1000);
    metrics.lastSweepAge.set((ctx.now().getTime() - Date.parse(lastSweepAt)) / 1000);
  }
  for (const channel of app.settings.config.channels) {
    const now = ctx.now().getTime();
    const depth = await ctx.outbox.depth(channel.name, now);
    for (const [state, count] of Object.entries(depth))
      metrics.queueDepth.set({ queue: `outbox-${channel.name}`, state }, count);
    const oldest = await ctx.outbox.oldestUndelivered(channel.name, now);
    metrics.channelOldestUndelivered.set(
      { channel: channel.name },
      oldest === null ? 0 : (now - oldest) / 1000,
    );
  }
  if (app.settings.config.subscribers)
    setSubscriberGauges(metrics, await collectSubscribers(ctx, ctx.now().getTime()));
  // Read from Redis at each scrape: every process reports every notice, whichever raised it.
  metrics.noticeActive.reset();
  for (const notice of await ctx.notices.list())
    metrics.noticeActive.set({ notice: notice.key, severity: notice.severity }, 1);
  for (const queue of app.queues.all()) {
    const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed', 'completed');
    for (const [state, count] of Object.entries(counts))
      metrics.queueDepth.set({ queue: queue.name, state }, count);
  }
}

function setSubscriberGauges(metrics: Metrics, status: SubscribersStatus): void {
  for (const state of ['active', 'paused', 'unsubscribed', 'digest'] as const)
    metrics.subscribers.set({ state }, status[state]);
  for (const state of ['ready', 'held', 'sending', 'parked', 'staged'] as const)
    metrics.subscriberOutboxItems.set({ state }, status[state]);
  metrics.subscriberOutboxesWithWork.set(status.outboxesWithWork);
  metrics.subscriberOldestUndelivered.set((status.oldestUndeliveredMs ?? 0) / 1000);
}

/**
 * `/healthz` (process up), `/readyz` (Redis, access, schedulers, worker liveness) and `/metrics` (Prometheus).
 * Every path but `/healthz` answers only the host names it serves (loopback, `http.allowedHosts`, the host
 * of `http.publicUrl`): another `Host` is a DNS-rebinding page or a name to configure, answered 421.
 * `/healthz` says `ok` and nothing more, so container and orchestrator probes may call it by any name.
 * `webConsole` (the composition's web console) answers its own paths before the probes' 404.
 */
export async function startHttpServer(
  app: OpsSource,
  port: number,
  host: string,
  webConsole: PathHandler,
): Promise<{ server: Server; port: number }> {
  // The web console (src/console/) answers its own paths; the probes below never need its token.
  const hostGate = createHostGate(() => app.settings.config.http, app.ctx.logger);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const reply = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const handle = async () => {
      if (path === '/healthz' && request.method === 'GET') return reply(200, 'text/plain', 'ok\n');
      if (!hostGate.admits(request))
        return reply(421, 'text/plain', 'misdirected request: this endpoint does not serve that host name\n');
      if (await webConsole.handle(request, response)) return;
      if (request.method !== 'GET') return reply(405, 'text/plain', 'method not allowed\n');
      if (path === '/readyz') {
        // The workers' and the delivery path's liveness are this process's own (src/ops/worker-liveness.ts), not read from Redis.
        const workers = withLiveness(await readiness(app), app.liveness);
        const report = withLiveness(workers, app.deliveryLiveness, 'delivery');
        return reply(report.ready ? 200 : 503, 'application/json', `${JSON.stringify(report)}\n`);
      }
      if (path === '/metrics') {
        await refreshGauges(app);
        return reply(200, app.metrics.registry.contentType, await app.metrics.registry.metrics());
      }
      return reply(404, 'text/plain', 'not found\n');
    };
    handle().catch((error: unknown) => {
      app.ctx.logger.warn({ err: error, path }, 'http endpoint failed');
      if (!response.headersSent) reply(503, 'text/plain', 'unavailable\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
