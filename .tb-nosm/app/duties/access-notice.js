import { ACCESS_REVOKED_NOTICE } from "../../budget/access-state.js";
import { BEAT_MS } from "./beat.js";
function accessNoticeUp(active) {
  return active.some((notice) => notice.key === ACCESS_REVOKED_NOTICE);
}
function accessNoticeClears(access) {
  return access.state === "ok";
}
function accessNotice(deps) {
  return {
    name: "access-notice",
    periodMs: BEAT_MS,
    reads: "active notices, then the access record",
    writes: "clears `access-revoked`",
    failure: "could not compare the access notice with the access state",
    run: async () => {
      if (!accessNoticeUp(await deps.notices.list())) return;
      if (!accessNoticeClears(await deps.access.get())) return;
      await deps.notices.clear(ACCESS_REVOKED_NOTICE, "Upstream access is back; polling resumes.");
    }
  };
}
async function reconcileAccess(deps, fingerprint) {
  if (await deps.access.reconcile(fingerprint)) {
    await deps.notices.clear(ACCESS_REVOKED_NOTICE, "The upstream key or URL changed; polling resumes.");
  }
}
export {
  accessNotice,
  accessNoticeClears,
  accessNoticeUp,
  reconcileAccess
};
