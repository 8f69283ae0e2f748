import { formatDuration } from "../../config/duration.js";
import { sourceStaleKey } from "../../jobs/registers/source-notices.js";
import { STALE_AFTER_INTERVALS, sourceState } from "../../jobs/registers/source-status.js";
import { BEAT_MS } from "./beat.js";
const STALE_NOTICE_FLOOR_MS = 10 * 6e4;
function staleSources(sources, statuses, startedAtMs, nowMs) {
  return sources.map((source) => {
    const status = statuses.find((s) => s.name === source.name);
    const bound = Math.max(STALE_AFTER_INTERVALS * source.interval, STALE_NOTICE_FLOOR_MS);
    if (status === void 0 || status.state === "never") {
      const stale2 = nowMs - startedAtMs > bound;
      return { source: source.name, stale: stale2, why: `not read once in ${formatDuration(nowMs - startedAtMs)}` };
    }
    const lastGood = status.lastGoodAt === null ? startedAtMs : Date.parse(status.lastGoodAt);
    const stale = status.state === "stale" && nowMs - lastGood > bound;
    const since = status.lastGoodAt ?? "this process started";
    const why = `no good read since ${since}${status.reason ? ` (last: ${status.reason})` : ""}`;
    return { source: source.name, stale, why };
  });
}
function sourceStaleness(deps) {
  return {
    name: "source-staleness",
    periodMs: BEAT_MS,
    reads: "each register source's health (`<t>:register:<name>:health`)",
    writes: "`source-stale-<name>`",
    failure: "could not check the register sources for staleness",
    run: async () => {
      const sources = deps.sources();
      if (sources.length === 0) return;
      const nowMs = deps.now().getTime();
      const statuses = await Promise.all(
        sources.map(async (s) => sourceState(s, await deps.store.health(s.name), nowMs))
      );
      for (const verdict of staleSources(sources, statuses, deps.startedAtMs, nowMs)) {
        const key = sourceStaleKey(verdict.source);
        if (!verdict.stale) await deps.notices.clear(key, `The ${verdict.source} register is read again.`);
        else
          await deps.notices.raise(
            key,
            "critical",
            `Register ${verdict.source} is stale`,
            `The ${verdict.source} register has had ${verdict.why}: its changes are not being told. See \`shortwatch status\` (SOURCES) and the log.`
          );
      }
    }
  };
}
export {
  STALE_NOTICE_FLOOR_MS,
  sourceStaleness,
  staleSources
};
