import { createServer } from "node:http";
import { createHostGate } from "../console/host-gate.js";
import { stateKeys } from "../state/keys.js";
import { readiness } from "./status.js";
import { collectSubscribers } from "./subscriber-status.js";
import { withLiveness } from "./worker-liveness.js";
async function refreshGauges(app) {
  const { metrics, ctx } = app;
  if (app.settings.config.upstream !== void 0) {
    const usage = await ctx.budget.usage();
    metrics.budgetLeft.set({ window: "minute" }, usage.minute.left);
    metrics.budgetLeft.set({ window: "day" }, usage.day.left);
  }
  const lastSweepAt = await ctx.redis.hget(stateKeys(ctx.prefix).sweep, "lastSweepAt");
  if (lastSweepAt) {
    metrics.lastSweepAt.set(Date.parse(lastSweepAt) / 1e3);
    metrics.lastSweepAge.set((ctx.now().getTime() - Date.parse(lastSweepAt)) / 1e3);
  }
  for (const channel of app.settings.config.channels) {
    const now = ctx.now().getTime();
    const depth = await ctx.outbox.depth(channel.name, now);
    for (const [state, count] of Object.entries(depth))
      metrics.queueDepth.set({ queue: `outbox-${channel.name}`, state }, count);
    const oldest = await ctx.outbox.oldestUndelivered(channel.name, now);
    metrics.channelOldestUndelivered.set(
      { channel: channel.name },
      oldest === null ? 0 : (now - oldest) / 1e3
    );
  }
  if (app.settings.config.subscribers)
    setSubscriberGauges(metrics, await collectSubscribers(ctx, ctx.now().getTime()));
  metrics.noticeActive.reset();
  for (const notice of await ctx.notices.list())
    metrics.noticeActive.set({ notice: notice.key, severity: notice.severity }, 1);
  for (const queue of app.queues.all()) {
    const counts = await queue.getJobCounts("waiting", "delayed", "active", "failed", "completed");
    for (const [state, count] of Object.entries(counts))
      metrics.queueDepth.set({ queue: queue.name, state }, count);
  }
}
function setSubscriberGauges(metrics, status) {
  for (const state of ["active", "paused", "unsubscribed", "digest"])
    metrics.subscribers.set({ state }, status[state]);
  for (const state of ["ready", "held", "sending", "parked", "staged"])
    metrics.subscriberOutboxItems.set({ state }, status[state]);
  metrics.subscriberOutboxesWithWork.set(status.outboxesWithWork);
  metrics.subscriberOldestUndelivered.set((status.oldestUndeliveredMs ?? 0) / 1e3);
}
async function startHttpServer(app, port, host, webConsole) {
  const hostGate = createHostGate(() => app.settings.config.http, app.ctx.logger);
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    const reply = (status, type, body) => {
      response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      response.end(body);
    };
    const handle = async () => {
      if (path === "/healthz" && request.method === "GET") return reply(200, "text/plain", "ok\n");
      if (!hostGate.admits(request))
        return reply(421, "text/plain", "misdirected request: this endpoint does not serve that host name\n");
      if (await webConsole.handle(request, response)) return;
      if (request.method !== "GET") return reply(405, "text/plain", "method not allowed\n");
      if (path === "/readyz") {
        const workers = withLiveness(await readiness(app), app.liveness);
        const report = withLiveness(workers, app.deliveryLiveness, "delivery");
        return reply(report.ready ? 200 : 503, "application/json", `${JSON.stringify(report)}
`);
      }
      if (path === "/metrics") {
        await refreshGauges(app);
        return reply(200, app.metrics.registry.contentType, await app.metrics.registry.metrics());
      }
      return reply(404, "text/plain", "not found\n");
    };
    handle().catch((error) => {
      app.ctx.logger.warn({ err: error, path }, "http endpoint failed");
      if (!response.headersSent) reply(503, "text/plain", "unavailable\n");
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: server.address().port };
}
export {
  refreshGauges,
  startHttpServer
};
