import { BEAT_MS } from "./beat.js";
function subscribersChanged(seen, version) {
  return version !== void 0 && seen !== version;
}
function subscriberDigests(deps) {
  let seen;
  return {
    name: "subscriber-digests",
    periodMs: BEAT_MS,
    reads: "`<t>:subscribers:version`, then every subscriber after a change",
    writes: "the subscribers' digest schedulers (a `start` process with `subscribers`)",
    failure: "could not upsert the subscribers' digest schedulers",
    run: async () => {
      const version = await deps.version();
      if (!subscribersChanged(seen, version)) return;
      await deps.syncSchedulers();
      seen = version;
    }
  };
}
export {
  subscriberDigests,
  subscribersChanged
};
