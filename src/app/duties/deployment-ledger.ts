import { type DeploymentLedger, isCredentialFingerprint } from '../../state/deployment-ledger.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** The fingerprint to record, or null when the config's is no credential's (its key was not read). */
export function ledgerToRecord(fingerprint: string): string | null {
  return isCredentialFingerprint(fingerprint) ? fingerprint : null;
}

/**
 * Records which credential's ledger the daemons count in, for commands loaded without the key (a reload
 * may change it, so at every beat). A failed write is dropped: the next beat writes again.
 */
export function deploymentLedger(deps: { ledger: DeploymentLedger; fingerprint: () => string }): Duty {
  return {
    name: 'deployment-ledger',
    periodMs: BEAT_MS,
    reads: 'the config in force (its fingerprint)',
    writes: '`<t>:ledger`',
    run: async () => {
      const fingerprint = ledgerToRecord(deps.fingerprint());
      if (fingerprint !== null) await deps.ledger.record(fingerprint);
    },
  };
}
