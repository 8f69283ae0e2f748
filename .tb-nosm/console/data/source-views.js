import { sourceState } from "../../jobs/registers/source-status.js";
import { RegisterStore } from "../../state/register-store.js";
import { watchedRows } from "./source-issuers.js";
function registerStore(app) {
  return new RegisterStore(app.redis, app.ctx.prefix);
}
async function loadSourceViews(app, only) {
  const configured = app.settings.config.sources.filter((s) => only === void 0 || s.name === only);
  const store = registerStore(app);
  const nowMs = app.ctx.now().getTime();
  return Promise.all(
    configured.map(async (config) => {
      const [health, kept, held] = await Promise.all([
        store.health(config.name),
        store.lastSnapshot(config.name),
        store.held(config.name)
      ]);
      return {
        config,
        status: sourceState(config, health, nowMs, held),
        kept,
        watched: kept ? watchedRows(kept.snapshot, config.watchlist) : []
      };
    })
  );
}
export {
  loadSourceViews,
  registerStore
};
