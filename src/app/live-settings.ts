import type { Config } from '../config/schema.js';
import type { Settings } from '../jobs/context.js';
import { planFor } from '../jobs/plan-for.js';
import type { UpstreamClient } from '../upstream/index.js';
import type { ClientRole } from '../upstream-clients.js';
import { configFingerprint } from './connections.js';

/** A config's settings before a start binds the watchlist (a command's plan is the config's own). */
export function initialSettings(config: Config): Settings {
  const fingerprint = configFingerprint(config);
  return { config, plan: planFor(config), watched: [], senders: new Map(), fingerprint };
}

/** The three upstream clients of a process, one per budget role. */
export type Clients = Record<ClientRole, UpstreamClient>;

/**
 * The settings and upstream clients in force, swapped whole by a reload. Jobs read the settings through
 * `current` once per job, and hold the stable delegates, behind which a reload swaps the clients.
 */
export class LiveSettings {
  #settings: Settings;
  #clients: Clients | undefined;

  constructor(settings: Settings) {
    this.#settings = settings;
  }

  /** The settings in force. */
  get current(): Settings {
    return this.#settings;
  }

  /** Replaces some of the settings (the watchlist and plan a start or the directory decided). */
  update(patch: Partial<Settings>): void {
    this.#settings = { ...this.#settings, ...patch };
  }

  /** The client of a role now. */
  client(role: ClientRole): UpstreamClient {
    if (this.#clients === undefined) throw new Error('the upstream clients are not built yet');
    return this.#clients[role];
  }

  /** Swaps in new settings and clients; returns the clients and senders they replace, for closing. */
  swap(settings: Settings, clients: Clients): Replaced {
    const { senders, subscriberMail } = this.#settings;
    const replaced = { clients: this.#clients, senders, subscriberMail };
    this.#settings = settings;
    this.#clients = clients;
    return replaced;
  }

  /** A client that stays the same object across reloads: it asks the client of its role in force. */
  delegate(role: ClientRole): UpstreamClient {
    return {
      listIssuers: () => this.client(role).listIssuers(),
      getPositions: (issuerId, status) => this.client(role).getPositions(issuerId, status),
      close: async () => undefined,
    };
  }

  /** Closes the senders and clients in force (at stop). */
  async close(): Promise<void> {
    const { senders, subscriberMail } = this.#settings;
    await closeAll({ clients: this.#clients, senders, subscriberMail });
  }
}

/** The parts a swap replaced, for closing. */
interface Replaced {
  clients: Clients | undefined;
  senders: Settings['senders'];
  subscriberMail?: Settings['subscriberMail'];
}

/** Closes senders and clients, each failure ignored: a stop or a reload goes on. */
export async function closeAll(parts: Replaced): Promise<void> {
  await Promise.all([...parts.senders.values()].map((s) => s.close().catch(() => undefined)));
  await parts.subscriberMail?.close().catch(() => undefined);
  await Promise.all(Object.values(parts.clients ?? {}).map((c) => c.close().catch(() => undefined)));
}
