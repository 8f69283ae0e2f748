import {
  QUIRKS
} from "../sandbox/index.js";
const CHAOS_MODES = [...QUIRKS, "transient-404", "rate-limit-without-retry-after"];
const MODES = {
  "null-last-updated": {
    scope: "every issuer",
    says: () => "positions answers say last_updated: null, while the issuer list gives a time"
  },
  "lagging-last-updated": {
    scope: "every issuer",
    says: () => "positions answers' last_updated lags the issuer list's by an hour"
  },
  "backwards-last-updated": {
    scope: "one answer",
    says: () => "a stale cache node: last_updated a day old, the holders from before the latest change"
  },
  "wrong-issuer": {
    scope: "one answer",
    says: (next) => `the answer is another issuer's${next ? `: ${next.name} (${next.id})` : ""}`
  },
  "status-all": {
    scope: "one issuer",
    says: () => "answers echo status: all and carry the full history, old and closed rows too"
  },
  paginated: {
    scope: "one issuer",
    says: () => "answers hold only the first half of the rows, with next, total and has_more"
  },
  vanish: { scope: "one answer", says: () => "every holder is gone from one answer" },
  "strings-for-numbers": {
    scope: "one issuer",
    says: () => "answers give every value as a string (schema drift)"
  },
  "transient-404": {
    scope: "one answer",
    says: () => "404 'Issuer not found' once, while the issuer list still names it"
  },
  "rate-limit-without-retry-after": {
    scope: "one answer",
    says: () => "the next request, whichever it is, gets a 429 (minute window) without Retry-After"
  }
};
function faultOf(mode, issuerId, once) {
  if (mode === "rate-limit-without-retry-after") {
    return { kind: "rateLimit", window: "minute", options: { retryAfterSeconds: null, times: 1 } };
  }
  const target = issuerId === void 0 ? {} : { issuerId };
  if (mode === "transient-404") return { kind: "inject", spec: { ...target, status: 404, times: 1 } };
  const quirk = mode;
  return { kind: "inject", spec: { ...target, quirk, times: once ? 1 : Number.POSITIVE_INFINITY } };
}
function buildChaosSchedule(issuers) {
  const withHolders = issuers.filter((issuer) => issuer.holders > 0);
  const targets = withHolders.length > 0 ? withHolders : issuers;
  let turn = 0;
  return CHAOS_MODES.map((mode) => {
    const { scope, says } = MODES[mode];
    const aimed = scope !== "every issuer" && mode !== "rate-limit-without-retry-after";
    const target = aimed ? targets[turn++ % targets.length] : void 0;
    const at = target ? issuers.findIndex((issuer) => issuer.id === target.id) : -1;
    const next = target ? issuers[(at + 1) % issuers.length] : void 0;
    const once = scope === "one answer";
    return {
      mode,
      ...target ? { issuer: { id: target.id, name: target.name } } : {},
      once,
      fault: faultOf(mode, target?.id, once),
      says: says(next)
    };
  });
}
export {
  CHAOS_MODES,
  buildChaosSchedule
};
