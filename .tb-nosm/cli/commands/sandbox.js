import { parseDuration } from "../../config/duration.js";
import {
  createScenario,
  DEFAULT_NO_API_KEY,
  DEFAULT_SANDBOX_KEY,
  loadScenarioFile,
  startSandbox
} from "../../sandbox/index.js";
import { parseTimeOfDay } from "../../sandbox/publication-clock.js";
import { CliError, EXIT } from "../exit.js";
const MINUTES_A_DAY = 1440;
async function sandboxCommand(options, out) {
  const port = integer(options.port, "--port");
  const stepEvery = options.stepEvery ? parseDuration(options.stepEvery) : void 0;
  if (options.stepEvery && stepEvery === void 0)
    throw new CliError(`--step-every: "${options.stepEvery}" is not a duration`, EXIT.usage);
  const dayMs = options.dayLength ? parseDuration(options.dayLength) : void 0;
  if (options.dayLength && !(dayMs !== void 0 && dayMs >= MINUTES_A_DAY))
    throw new CliError(
      `--day-length: "${options.dayLength}" is not a duration of 1440ms or more`,
      EXIT.usage
    );
  const publishAt = typeof options.publish === "string" ? options.publish : void 0;
  if (publishAt !== void 0 && parseTimeOfDay(publishAt) === void 0)
    throw new CliError(`--publish: "${publishAt}" is not a time of day (HH:MM)`, EXIT.usage);
  if (options.scenario && options.publish)
    throw new CliError("--publish: only a generated scenario (not --scenario) publishes", EXIT.usage);
  const scenario = options.scenario ? loadScenarioFile(options.scenario) : createScenario({
    seed: integer(options.seed, "--seed"),
    issuers: integer(options.issuers, "--issuers"),
    ...options.publish ? { publications: { dayMs, at: publishAt } } : {}
  });
  const sandbox = await startSandbox({
    host: options.host,
    port,
    scenario,
    stepEvery,
    limits: {
      perMinute: options.perMinute ? integer(options.perMinute, "--per-minute") : void 0,
      perDay: options.perDay ? integer(options.perDay, "--per-day") : void 0,
      ...dayMs === void 0 ? {} : { dayMs, minuteMs: Math.floor(dayMs / MINUTES_A_DAY) }
    }
  });
  out(`shortwatch sandbox listening on ${sandbox.url}`);
  out(`  API key: ${DEFAULT_SANDBOX_KEY}   (a key without API access: ${DEFAULT_NO_API_KEY})`);
  out(`  ${scenario.issuers().length} issuers; ${changesInWords(options, stepEvery)}`);
  out(`  try: curl -H 'Authorization: Bearer ${DEFAULT_SANDBOX_KEY}' ${sandbox.url}/issuers`);
  return new Promise((resolve) => {
    const stop = () => void sandbox.close().then(() => resolve(EXIT.ok));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
function changesInWords(options, stepEvery) {
  const day = options.dayLength ? ` on a day of ${options.dayLength}` : "";
  if (options.publish) {
    const at = typeof options.publish === "string" ? options.publish : "15:30";
    return `each issuer changes at its own rate, published at ${at} Europe/Amsterdam on business days${day}`;
  }
  return `${stepEvery ? `the data changes every ${options.stepEvery}` : "static data"}${day ? `; rate limits${day}` : ""}`;
}
function integer(text, flag) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new CliError(`${flag}: "${text}" is not a whole number`, EXIT.usage);
  return value;
}
export {
  sandboxCommand
};
