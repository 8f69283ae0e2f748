import { isCredentialFingerprint } from "../../state/deployment-ledger.js";
import { BEAT_MS } from "./beat.js";
function ledgerToRecord(fingerprint) {
  return isCredentialFingerprint(fingerprint) ? fingerprint : null;
}
function deploymentLedger(deps) {
  return {
    name: "deployment-ledger",
    periodMs: BEAT_MS,
    reads: "the config in force (its fingerprint)",
    writes: "`<t>:ledger`",
    run: async () => {
      const fingerprint = ledgerToRecord(deps.fingerprint());
      if (fingerprint !== null) await deps.ledger.record(fingerprint);
    }
  };
}
export {
  deploymentLedger,
  ledgerToRecord
};
