import { planFor } from "../jobs/plan-for.js";
import { configFingerprint } from "./connections.js";
function initialSettings(config) {
  const fingerprint = configFingerprint(config);
  return { config, plan: planFor(config), watched: [], senders: /* @__PURE__ */ new Map(), fingerprint };
}
class LiveSettings {
  #settings;
  #clients;
  constructor(settings) {
    this.#settings = settings;
  }
  /** The settings in force. */
  get current() {
    return this.#settings;
  }
  /** Replaces some of the settings (the watchlist and plan a start or the directory decided). */
  update(patch) {
    this.#settings = { ...this.#settings, ...patch };
  }
  /** The client of a role now. */
  client(role) {
    if (this.#clients === void 0) throw new Error("the upstream clients are not built yet");
    return this.#clients[role];
  }
  /** Swaps in new settings and clients; returns the clients and senders they replace, for closing. */
  swap(settings, clients) {
    const { senders, subscriberMail } = this.#settings;
    const replaced = { clients: this.#clients, senders, subscriberMail };
    this.#settings = settings;
    this.#clients = clients;
    return replaced;
  }
  /** A client that stays the same object across reloads: it asks the client of its role in force. */
  delegate(role) {
    return {
      listIssuers: () => this.client(role).listIssuers(),
      getPositions: (issuerId, status) => this.client(role).getPositions(issuerId, status),
      close: async () => void 0
    };
  }
  /** Closes the senders and clients in force (at stop). */
  async close() {
    const { senders, subscriberMail } = this.#settings;
    await closeAll({ clients: this.#clients, senders, subscriberMail });
  }
}
async function closeAll(parts) {
  await Promise.all([...parts.senders.values()].map((s) => s.close().catch(() => void 0)));
  await parts.subscriberMail?.close().catch(() => void 0);
  await Promise.all(Object.values(parts.clients ?? {}).map((c) => c.close().catch(() => void 0)));
}
export {
  LiveSettings,
  closeAll,
  initialSettings
};
