import { z } from "zod";
import { stateKeys } from "./keys.js";
const fingerprint = z.string().regex(/^[0-9a-f]{16}$/);
function isCredentialFingerprint(value) {
  return fingerprint.safeParse(value).success;
}
class DeploymentLedger {
  #redis;
  #key;
  constructor(redis, root) {
    this.#redis = redis;
    this.#key = stateKeys(root).ledger;
  }
  /** Records the fingerprint of the credential the daemon runs with (at every beat: a reload may change it). */
  async record(credential) {
    await this.#redis.set(this.#key, fingerprint.parse(credential));
  }
  /** The fingerprint a daemon recorded, or null when none did (or the record is unreadable). */
  async recorded() {
    const parsed = fingerprint.safeParse(await this.#redis.get(this.#key));
    return parsed.success ? parsed.data : null;
  }
}
export {
  DeploymentLedger,
  isCredentialFingerprint
};
