import { parseDuration } from '../../config/duration.js';
import {
  createScenario,
  DEFAULT_NO_API_KEY,
  DEFAULT_SANDBOX_KEY,
  loadScenarioFile,
  startSandbox,
} from '../../sandbox/index.js';
import { CliError, EXIT } from '../exit.js';

/** Options of `shortwatch sandbox`. */
export interface SandboxCommandOptions {
  port: string;
  host: string;
  seed: string;
  issuers: string;
  scenario?: string;
  stepEvery?: string;
  perMinute?: string;
  perDay?: string;
}

/** `shortwatch sandbox`: runs the upstream simulator in the foreground until Ctrl-C. */
export async function sandboxCommand(
  options: SandboxCommandOptions,
  out: (text: string) => void,
): Promise<number> {
  const port = integer(options.port, '--port');
  const stepEvery = options.stepEvery ? parseDuration(options.stepEvery) : undefined;
  if (options.stepEvery && stepEvery === undefined)
    throw new CliError(`--step-every: "${options.stepEvery}" is not a duration`, EXIT.usage);
  const scenario = options.scenario
    ? loadScenarioFile(options.scenario)
    : createScenario({
        seed: integer(options.seed, '--seed'),
        issuers: integer(options.issuers, '--issuers'),
      });
  const sandbox = await startSandbox({
    host: options.host,
    port,
    scenario,
    stepEvery,
    limits: {
      perMinute: options.perMinute ? integer(options.perMinute, '--per-minute') : undefined,
      perDay: options.perDay ? integer(options.perDay, '--per-day') : undefined,
    },
  });
  out(`shortwatch sandbox listening on ${sandbox.url}`);
  out(`  API key: ${DEFAULT_SANDBOX_KEY}   (a key without API access: ${DEFAULT_NO_API_KEY})`);
  out(
    `  ${scenario.issuers().length} issuers; ${stepEvery ? `the data changes every ${options.stepEvery}` : 'static data'}`,
  );
  out(`  try: curl -H 'Authorization: Bearer ${DEFAULT_SANDBOX_KEY}' ${sandbox.url}/issuers`);
  return new Promise<number>((resolve) => {
    const stop = () => void sandbox.close().then(() => resolve(EXIT.ok));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

function integer(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new CliError(`${flag}: "${text}" is not a whole number`, EXIT.usage);
  return value;
}
