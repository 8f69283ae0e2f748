import { parseDuration } from '../../config/duration.js';
import {
  createScenario,
  DEFAULT_NO_API_KEY,
  DEFAULT_SANDBOX_KEY,
  loadScenarioFile,
  startSandbox,
} from '../../sandbox/index.js';
import { parseTimeOfDay } from '../../sandbox/publication-clock.js';
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
  /** Publish the day's changes at this local time (`HH:MM`, Europe/Amsterdam) on business days; `true`: 15:30. */
  publish?: string | boolean;
  /** A shorter day for publications and the rate limits' windows (the minute window: a 1,440th of it). */
  dayLength?: string;
}

/** Minute windows in a day: the minute window of a scaled day is this share of it. */
const MINUTES_A_DAY = 1_440;

/** `shortwatch sandbox`: runs the upstream simulator in the foreground until Ctrl-C. */
export async function sandboxCommand(
  options: SandboxCommandOptions,
  out: (text: string) => void,
): Promise<number> {
  const port = integer(options.port, '--port');
  const stepEvery = options.stepEvery ? parseDuration(options.stepEvery) : undefined;
  if (options.stepEvery && stepEvery === undefined)
    throw new CliError(`--step-every: "${options.stepEvery}" is not a duration`, EXIT.usage);
  const dayMs = options.dayLength ? parseDuration(options.dayLength) : undefined;
  if (options.dayLength && !(dayMs !== undefined && dayMs >= MINUTES_A_DAY))
    throw new CliError(
      `--day-length: "${options.dayLength}" is not a duration of 1440ms or more`,
      EXIT.usage,
    );
  const publishAt = typeof options.publish === 'string' ? options.publish : undefined;
  if (publishAt !== undefined && parseTimeOfDay(publishAt) === undefined)
    throw new CliError(`--publish: "${publishAt}" is not a time of day (HH:MM)`, EXIT.usage);
  if (options.scenario && options.publish)
    throw new CliError('--publish: only a generated scenario (not --scenario) publishes', EXIT.usage);
  const scenario = options.scenario
    ? loadScenarioFile(options.scenario)
    : createScenario({
        seed: integer(options.seed, '--seed'),
        issuers: integer(options.issuers, '--issuers'),
        ...(options.publish ? { publications: { dayMs, at: publishAt } } : {}),
      });
  const sandbox = await startSandbox({
    host: options.host,
    port,
    scenario,
    stepEvery,
    limits: {
      perMinute: options.perMinute ? integer(options.perMinute, '--per-minute') : undefined,
      perDay: options.perDay ? integer(options.perDay, '--per-day') : undefined,
      ...(dayMs === undefined ? {} : { dayMs, minuteMs: Math.floor(dayMs / MINUTES_A_DAY) }),
    },
  });
  out(`shortwatch sandbox listening on ${sandbox.url}`);
  out(`  API key: ${DEFAULT_SANDBOX_KEY}   (a key without API access: ${DEFAULT_NO_API_KEY})`);
  out(`  ${scenario.issuers().length} issuers; ${changesInWords(options, stepEvery)}`);
  out(`  try: curl -H 'Authorization: Bearer ${DEFAULT_SANDBOX_KEY}' ${sandbox.url}/issuers`);
  return new Promise<number>((resolve) => {
    const stop = () => void sandbox.close().then(() => resolve(EXIT.ok));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

function changesInWords(options: SandboxCommandOptions, stepEvery: number | undefined): string {
  const day = options.dayLength ? ` on a day of ${options.dayLength}` : '';
  if (options.publish) {
    const at = typeof options.publish === 'string' ? options.publish : '15:30';
    return `each issuer changes at its own rate, published at ${at} Europe/Amsterdam on business days${day}`;
  }
  return `${stepEvery ? `the data changes every ${options.stepEvery}` : 'static data'}${day ? `; rate limits${day}` : ''}`;
}

function integer(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new CliError(`${flag}: "${text}" is not a whole number`, EXIT.usage);
  return value;
}
