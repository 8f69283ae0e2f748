import { z } from 'zod';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

/** A credential's fingerprint as budget/access-state.ts `accessFingerprint` makes it. */
const fingerprint = z.string().regex(/^[0-9a-f]{16}$/);

/** Whether `value` is a credential's fingerprint (and not, say, the placeholder of a key not read). */
export function isCredentialFingerprint(value: string): boolean {
  return fingerprint.safeParse(value).success;
}

/**
 * Which credential's ledger (state/keys.ts `ledgerRoot`) a deployment's daemons count in, recorded in the
 * deployment: a command run without the API key (`status`, loaded by config/lazy-secrets.ts) cannot
 * fingerprint the key, and reads the budget the daemons spend from this record instead.
 */
export class DeploymentLedger {
  readonly #redis: RedisClient;
  readonly #key: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#key = stateKeys(root).ledger;
  }

  /** Records the fingerprint of the credential the daemon runs with (at every beat: a reload may change it). */
  async record(credential: string): Promise<void> {
    await this.#redis.set(this.#key, fingerprint.parse(credential));
  }

  /** The fingerprint a daemon recorded, or null when none did (or the record is unreadable). */
  async recorded(): Promise<string | null> {
    const parsed = fingerprint.safeParse(await this.#redis.get(this.#key));
    return parsed.success ? parsed.data : null;
  }
}
