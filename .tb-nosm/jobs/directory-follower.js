import { isConfigError } from "../config/config-error.js";
import { planFor } from "./plan-for.js";
import { isWholeDirectory, resolveWatchlist } from "./watchlist.js";
const NOTICE = "watchlist-plan";
class DirectoryFollower {
  #ctx;
  /** `fetchedAt` of the list last followed: each save writes a new one. */
  #seen = null;
  #size = null;
  constructor(ctx) {
    this.#ctx = ctx;
  }
  /**
   * The watched set and plan for a list saved since the last call; undefined when none was (or the
   * watchlist names its issuers). With `report`, a size the budget cannot plan for is a notice.
   */
  async follow(settings, options) {
    if (!isWholeDirectory(settings.config.watchlist)) return void 0;
    const fetchedAt = await this.#ctx.directory.fetchedAt();
    if (fetchedAt === null || fetchedAt === this.#seen) return void 0;
    const directory = await this.#ctx.directory.load();
    if (directory === null) return void 0;
    this.#seen = fetchedAt;
    const watched = resolveWatchlist(settings.config.watchlist, directory.issuers).watched;
    const before = this.#size;
    this.#size = watched.length;
    if (before === watched.length) return { watched, plan: settings.plan };
    const plan = await this.#plan(settings, directory.issuers, options.report);
    if (before !== null) {
      this.#ctx.logger.info(
        { issuers: watched.length, before, requestsPerDay: plan.requestsPerDay },
        "the directory changed size: the plan follows it (watchlist: all)"
      );
    }
    return { watched, plan };
  }
  /** The plan for the list's size; when the budget cannot carry it, the plan in force stays and says so. */
  async #plan(settings, issuers, report) {
    try {
      const plan = planFor(settings.config, issuers);
      if (report) await this.#ctx.notices.clear(NOTICE, "The whole directory fits the polling plan again.");
      return plan;
    } catch (error) {
      if (!isConfigError(error)) throw error;
      const why = error.issues.map((issue) => issue.message).join("; ");
      this.#ctx.logger.warn({ issuers: issuers.length }, `the directory outgrew the plan: watchlist ${why}`);
      if (report) {
        await this.#ctx.notices.raise(
          NOTICE,
          "warning",
          "The whole directory no longer fits the polling plan",
          `watchlist ${why}. The plan made for the earlier size stays in force: polls the day's budget cannot pay for wait for the next day. Turn \`poll.gate\` on, or raise \`budget.perDay\`.`
        );
      }
      return settings.plan;
    }
  }
}
export {
  DirectoryFollower
};
