// Issue 31: the README's dry run (step 3, as written, config/example.yaml as shipped) for a length of
// time, here 30 minutes unless told, then what each e-mail recipient and the Slack feed received, by
// message type. The operator channel must have had notices and test-notify's sample only.
// Run: npx tsx scripts/readme-dry-run.ts [minutes]
import { accessFingerprint } from '../src/budget/access-state.js';
import { MESSAGE_TYPE_HEADER } from '../src/channels/email/index.js';
import { startSlackCapture } from '../src/demo/slack-capture.js';
import { startSmtpCapture } from '../src/demo/smtp-capture.js';
import { ledgerRoot } from '../src/state/keys.js';
import { freePort, runShortwatch, spawnShortwatch, stopDaemons } from '../test/e2e/harness.js';
import { readmeDryRun } from '../test/e2e/readme-dry-run-steps.js';
import compileCli from '../test/helpers/compiled-cli.js';
import { createTestRedis, deleteByPrefix } from '../test/helpers/redis.js';

const minutes = Number(process.argv[2] ?? 30);
const OPS = 'shortwatch-ops@example.com';

await compileCli();
const { env: exported, commands } = readmeDryRun();
const [sandboxArgs = [], checkArgs = [], notifyArgs = [], startArgs = []] = commands;
const redis = await createTestRedis('dry-run-30');
const [slack, smtp, sandboxPort, httpPort] = await Promise.all([
  startSlackCapture(),
  startSmtpCapture(),
  freePort(),
  freePort(),
]);
const ported = (text: string) => text.replaceAll('8080', String(sandboxPort));
const env = {
  ...Object.fromEntries(Object.entries(exported).map(([name, value]) => [name, ported(value)])),
  SLACK_WEBHOOK_URL: slack.url,
  SMTP_URL: `smtp://${smtp.host}:${smtp.port}`,
  SHORTWATCH_REDIS_PREFIX: redis.prefix,
  SHORTWATCH_HTTP_PORT: String(httpPort),
};
const sandbox = spawnShortwatch(sandboxArgs.map(ported));
const running = [sandbox];
let failed = false;
try {
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  for (const args of [checkArgs, notifyArgs]) {
    const run = await runShortwatch(args, env);
    process.stdout.write(`shortwatch ${args.join(' ')}: exit ${run.code}\n`);
    if (run.code !== 0) throw new Error(`${run.stdout}${run.stderr}`);
  }
  const daemon = spawnShortwatch(startArgs, env);
  running.push(daemon);
  const started = Date.now();
  await new Promise((resolve) => setTimeout(resolve, minutes * 60_000));
  const types = new Map<string, Map<string, number>>();
  for (const mail of smtp.mails) {
    const to = (Array.isArray(mail.parsed.to) ? mail.parsed.to : [mail.parsed.to])
      .map((t) => t?.text)
      .join(', ');
    const type = String(mail.parsed.headers.get(MESSAGE_TYPE_HEADER.toLowerCase()));
    const counts = types.get(to) ?? new Map<string, number>();
    counts.set(type, (counts.get(type) ?? 0) + 1);
    types.set(to, counts);
  }
  process.stdout.write(`after ${((Date.now() - started) / 60_000).toFixed(1)} min of start:\n`);
  process.stdout.write(`  Slack feed: ${slack.delivered().length} messages\n`);
  for (const [to, counts] of types)
    process.stdout.write(`  ${to}: ${[...counts].map(([type, n]) => `${n} ${type}`).join(', ')}\n`);
  const ops = [...(types.get(OPS) ?? new Map<string, number>()).keys()];
  failed = ops.some((type) => type !== 'notice' && type !== 'test');
  process.stdout.write(
    `${failed ? 'FAIL' : 'ok'}: the ops channel received ${ops.join(', ') || 'nothing'}\n`,
  );
  if (daemon.child.exitCode !== null) {
    failed = true;
    process.stdout.write(`FAIL: start exited ${daemon.child.exitCode}\n`);
  }
} finally {
  await stopDaemons(running);
  await Promise.all([slack.close(), smtp.close()]);
  await deleteByPrefix(
    redis.redis,
    ledgerRoot(accessFingerprint(`http://127.0.0.1:${sandboxPort}`, 'sandbox-key')),
  );
  await redis.cleanup();
}
process.exit(failed ? 1 : 0);
