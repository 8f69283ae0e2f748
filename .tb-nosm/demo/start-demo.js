import { randomBytes } from "node:crypto";
import { App } from "../app.js";
import { accessFingerprint } from "../budget/access-state.js";
import { sourcesSchema } from "../config/schema/sources.js";
import { collectSecrets } from "../config/secret.js";
import { addWeekdays } from "../sandbox/dates.js";
import { createScenario, startSandbox } from "../sandbox/index.js";
import { ledgerRoot } from "../state/keys.js";
import { createLogger } from "../telemetry/logger.js";
import { alertLine, slackAlertLines } from "./alert-lines.js";
import { createCaptureFiles, prepareCaptureDirs } from "./capture-files.js";
import { deleteKeysUnder } from "./delete-prefix.js";
import { loadDemoConfig } from "./demo-config.js";
import { createEmailScreenshots } from "./email-screenshots.js";
import { connectOnce } from "./redis-probe.js";
import { freePort } from "./redis-server-child.js";
import { startRegisterReplay } from "./register-replay.js";
import { startSlackCapture } from "./slack-capture.js";
import { startSmtpCapture } from "./smtp-capture.js";
const DEMO_SCENARIO = { seed: 20, issuers: 8 };
const DEMO_STEP_MS = 5e3;
function demoStart(nowMs) {
  return addWeekdays(new Date(nowMs).toISOString().slice(0, 10), -1);
}
function record(io, work) {
  try {
    for (const line of work()) io.stdout.write(`${line}
`);
  } catch (error) {
    io.stderr.write(`shortwatch demo: could not record a delivery: ${String(error)}
`);
  }
}
const PICTURES_WAIT_MS = 3e3;
async function startCaptures(out, io, teardown) {
  prepareCaptureDirs(out);
  const files = createCaptureFiles(out, createEmailScreenshots());
  teardown.add("e-mail pictures", async () => {
    const late = new Promise(
      (resolve) => setTimeout(() => resolve("late"), PICTURES_WAIT_MS).unref()
    );
    const problem = await Promise.race([files.close(), late]);
    if (problem === "late")
      io.stdout.write(
        `Some e-mail pictures were not taken within ${PICTURES_WAIT_MS / 1e3} s; the .eml and .html files are complete.
`
      );
    else if (problem) io.stderr.write(`${problem}
`);
  });
  const slack = await startSlackCapture({
    onPost: (post) => record(io, () => {
      files.slack(post);
      return slackAlertLines(post.payload).map((line) => alertLine(post.receivedAt, "slack", line));
    })
  });
  teardown.add("Slack stand-in", () => slack.close());
  const smtp = await startSmtpCapture({
    onMail: (mail) => record(io, () => {
      const { kind } = files.mail(mail);
      const headline = kind === "email" ? mail.parsed.text?.split("\n")[0] : void 0;
      return [alertLine(mail.receivedAt, kind, headline || mail.parsed.subject || "(no subject)")];
    })
  });
  teardown.add("SMTP server", () => smtp.close());
  return { files, slack, smtp };
}
const DEMO_REGISTER_INTERVAL = "2s";
async function withRegisters(config, io, teardown) {
  const replay = await startRegisterReplay(DEMO_STEP_MS);
  teardown.add("register replay", () => replay.close());
  for (const source of replay.sources)
    io.stdout.write(
      `Register ${source.name} (${source.kind}): ${source.url}, read every ${DEMO_REGISTER_INTERVAL}
`
    );
  const sources = sourcesSchema.parse(
    replay.sources.map((s) => ({ ...s, interval: DEMO_REGISTER_INTERVAL }))
  );
  return { ...config, sources };
}
async function demoKeys(url, prefix, teardown) {
  const admin = connectOnce(url, 2e3);
  await admin.connect();
  teardown.add("Redis connection", () => admin.quit());
  const keys = {
    ledger: void 0,
    removed: void 0
  };
  teardown.add("demo keys", async () => {
    keys.removed = await deleteKeysUnder(admin, prefix);
    if (keys.ledger !== void 0) keys.removed += await deleteKeysUnder(admin, keys.ledger);
  });
  return keys;
}
function startDemoSandbox(port, budget) {
  return startSandbox({
    port,
    scenario: createScenario({ ...DEMO_SCENARIO, start: demoStart(Date.now()) }),
    stepEvery: DEMO_STEP_MS,
    limits: {
      perMinute: budget.perMinute,
      perDay: budget.perDay,
      minuteMs: budget.minuteWindow,
      dayMs: budget.dayWindow
    }
  });
}
async function startDemo(out, redis, io, teardown, options = { registers: false }) {
  const prefix = `shortwatch-demo-${randomBytes(4).toString("hex")}`;
  const keys = await demoKeys(redis.url, prefix, teardown);
  const { files, slack, smtp } = await startCaptures(out, io, teardown);
  const sandboxPort = await freePort();
  const loaded = loadDemoConfig(
    {
      upstreamUrl: `http://127.0.0.1:${sandboxPort}`,
      slackUrl: slack.url,
      smtpPort: smtp.port,
      redisUrl: redis.url,
      prefix
    },
    io.env
  );
  const config = options.registers ? await withRegisters(loaded, io, teardown) : loaded;
  const { upstream } = config;
  if (upstream) keys.ledger = ledgerRoot(accessFingerprint(upstream.baseUrl, upstream.apiKey));
  const sandbox = await startDemoSandbox(sandboxPort, config.budget);
  teardown.add("sandbox", () => sandbox.close());
  const logger = createLogger({
    level: config.log.level,
    format: config.log.format,
    secrets: collectSecrets(config),
    destination: io.stderr,
    isTTY: io.stderr.isTTY ?? false
  });
  const app = await App.open(config, { logger });
  teardown.add("daemon", () => app.stop(2e3));
  return {
    prefix,
    config,
    app,
    sandboxUrl: sandbox.url,
    issuers: sandbox.scenario.issuers().length,
    sandbox,
    slackUrl: slack.url,
    smtp: `${smtp.host}:${smtp.port}`,
    files,
    removedKeys: () => keys.removed
  };
}
export {
  DEMO_SCENARIO,
  DEMO_STEP_MS,
  startDemo
};
