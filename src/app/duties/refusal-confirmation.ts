import type { AccessState } from '../../budget/index.js';
import type { Logger } from '../../telemetry/logger.js';
import type { UpstreamClient } from '../../upstream/index.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** What the probe's answer to a refusal an interactive command saw means, as the log line telling it. */
export function refusalCheckLine(outcome: { answered: true } | { answered: false; error: unknown }): {
  level: 'info' | 'warn';
  message: string;
} {
  if (outcome.answered) {
    return {
      level: 'info',
      message: 'an interactive command was refused with this key; the upstream accepts it: polling goes on',
    };
  }
  // Refused again: the guard behind the probe client stopped polling and raised the notice itself.
  return { level: 'warn', message: 'checked the key an interactive command saw refused' };
}

/**
 * An interactive command with this daemon's key was refused (a 401/403): one request of the daemon's own
 * probe client decides. Refused again, the guard stops polling everywhere and raises the notice; answered,
 * nothing changes (the command's key or moment was wrong, not the daemon's).
 */
export function refusalConfirmation(deps: {
  access: Pick<AccessState, 'takeConfirmation'>;
  fingerprint: () => string;
  probe: () => Pick<UpstreamClient, 'listIssuers'>;
  logger: Logger;
}): Duty {
  return {
    name: 'refusal-confirmation',
    periodMs: BEAT_MS,
    reads: 'the access record (a confirmation asked for by a command)',
    writes: 'one probe request; on a 401/403 the access record and the `access-revoked` notice (the guard)',
    failure: 'could not check a refusal an interactive command saw',
    run: async () => {
      if (!(await deps.access.takeConfirmation(deps.fingerprint()))) return;
      const outcome = await deps
        .probe()
        .listIssuers()
        .then(
          () => ({ answered: true }) as const,
          (error: unknown) => ({ answered: false, error }) as const,
        );
      const line = refusalCheckLine(outcome);
      if (line.level === 'info') deps.logger.info(line.message);
      else deps.logger.warn({ err: 'error' in outcome ? outcome.error : undefined }, line.message);
    },
  };
}
