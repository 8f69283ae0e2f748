import { isConfigError } from "../config/config-error.js";
import { planFor } from "./plan-for.js";
import { isWholeDirectory, resolveWatchlist } from "./watchlist.js";
const NOTICE = "subscribers-plan";
class SubscriberFollower {
  #ctx;
  #seen;
  constructor(ctx) {
    this.#ctx = ctx;
  }
  /** The watched set and plan for the union, or undefined when nothing changed since the last look. */
  async follow(settings, options) {
    const { config } = settings;
    if (!config.subscribers || !config.upstream || isWholeDirectory(config.watchlist)) return void 0;
    const version = await this.#ctx.subscribers.version();
    if (this.#seen?.version === version && this.#seen.config === config) return void 0;
    const directory = await this.#ctx.directory.load();
    if (directory === null) return void 0;
    this.#seen = { version, config };
    const own = resolveWatchlist(config.watchlist, directory.issuers).watched;
    const entries = await this.#ctx.subscribers.followedIssuers();
    const theirs = resolveWatchlist(
      entries.map((entry) => ({ name: entry })),
      directory.issuers
    ).watched;
    const byId = new Map(own.map((issuer) => [issuer.id, issuer]));
    for (const issuer of theirs) if (!byId.has(issuer.id)) byId.set(issuer.id, issuer);
    for (const entry of entries) {
      const issuer = directory.issuers.find((i) => i.svc_issuer_id === entry);
      if (issuer && !byId.has(issuer.svc_issuer_id))
        byId.set(issuer.svc_issuer_id, { id: issuer.svc_issuer_id, name: issuer.name });
    }
    const watched = [...byId.values()];
    const ownIds = new Set(own.map((issuer) => issuer.id));
    const subscriberOnly = new Set(watched.filter((issuer) => !ownIds.has(issuer.id)).map((i) => i.id));
    return { watched, subscriberOnly, plan: await this.#plan(settings, watched, options.report) };
  }
  async #plan(settings, watched, report) {
    const union = { ...settings.config, watchlist: watched.map((issuer) => ({ id: issuer.id })) };
    try {
      const plan = planFor(union);
      if (report)
        await this.#ctx.notices.clear(NOTICE, "Every subscriber's issuers fit the polling plan again.");
      return plan;
    } catch (error) {
      if (!isConfigError(error)) throw error;
      const why = error.issues.map((issue) => issue.message).join("; ");
      this.#ctx.logger.warn({ issuers: watched.length }, `subscribers' issuers outgrew the plan: ${why}`);
      if (!report) return settings.plan;
      await this.#ctx.notices.raise(
        NOTICE,
        "warning",
        "Subscribers' issuers do not fit the polling plan",
        `${watched.length} issuers with the subscribers' own: ${why}. The plan in force stays: polls the day's budget cannot pay for wait for the next day, so subscribers' issuers are checked less often than the plan says.`
      );
      return settings.plan;
    }
  }
}
export {
  SubscriberFollower
};
