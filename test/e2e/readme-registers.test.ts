// The README's "Watch the FCA or the AFM registers (three commands)", run as written: its config heredoc
// and its `npx shortwatch` commands, spawned with SLACK_WEBHOOK_URL as the only variable of shortwatch's.
// Only what a test must own differs: the register's address (a local stand-in serving the FCA file), the
// Redis prefix (one per run) and the Slack webhook (the Slack stand-in).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import type { StatusReport } from '../../src/ops/status.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { shellWords } from '../helpers/shell-words.js';
import { type DaemonProcess, runShortwatch, spawnShortwatch, stopDaemons, waitFor } from './harness.js';
import { ANSP_FIXTURE } from './register-changes.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const HEADING = '### Watch the FCA or the AFM registers (three commands)';

/** The section's shell block: the file its heredoc writes, the YAML it holds, and its shortwatch commands. */
function threeCommands(): { file: string; yaml: string; commands: string[][]; block: string } {
  const section = readme.slice(readme.indexOf(HEADING));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const heredoc = /^cat > (\S+) <<'EOF'\n([\s\S]*?)^EOF$/m.exec(block);
  const commands = block
    .split('\n')
    .map(shellWords)
    .filter((words) => words[0] === 'npx' && words[1] === 'shortwatch')
    .map((words) => words.slice(2));
  return { file: heredoc?.[1] ?? '', yaml: heredoc?.[2] ?? '', commands, block };
}

/** The heredoc's YAML: its sections, and each source's name and address (the rest kept as written). */
const heredocSchema = z.looseObject({
  sources: z.array(z.looseObject({ name: z.string(), url: z.string() })),
});

/** Every variable shortwatch's own configs name, left out of the children's environment. */
function withoutShortwatchVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => /^(SHORTWATCH_|SMTP_URL$|SLACK_WEBHOOK_URL$)/.test(name))
      .map((name) => [name, undefined]),
  );
}

describe("the README's registers section, run as written", () => {
  const { file, yaml, commands, block } = threeCommands();
  let redis: TestRedis;
  let slack: SlackCapture;
  let server: RegisterServer;
  let dir: string;
  const running: DaemonProcess[] = [];

  beforeAll(async () => {
    redis = await createTestRedis('readme-registers');
    [slack, server] = await Promise.all([startSlackCapture(), startRegisterServer()]);
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-readme-registers-'));
  });

  afterAll(async () => {
    await stopDaemons(running);
    await Promise.all([slack?.close(), server?.close()]);
    await redis?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('needs no upstream: a config of sources and a Slack channel, then check and start on it', () => {
    expect(block).not.toMatch(/upstream|SHORTWATCH_UPSTREAM_URL|SHORTWATCH_API_KEY/);
    expect(Object.keys(heredocSchema.parse(parse(yaml))).sort()).toEqual(['channels', 'sources']);
    expect(commands).toEqual([
      ['check', '--config', file],
      ['start', '--config', file],
    ]);
  });

  it('validates with `check` and reads the register with `start`, with only SLACK_WEBHOOK_URL set', async () => {
    const config = heredocSchema.parse(parse(yaml));
    const { sources } = config;
    for (const source of sources) {
      const path = `/${source.name}.csv`;
      server.serve(path, registerBytes(ANSP_FIXTURE));
      source.url = server.url(path);
    }
    const path = join(dir, 'registers.yaml');
    writeFileSync(path, stringify({ ...config, redis: { prefix: redis.prefix } }));
    const env = { ...withoutShortwatchVariables(), SLACK_WEBHOOK_URL: slack.url };
    const [checkArgs = [], startArgs = []] = commands.map((args) => args.map((a) => (a === file ? path : a)));

    const check = await runShortwatch(checkArgs, env);
    expect(check.code, `${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).not.toMatch(/^FAIL/m);

    const daemon = spawnShortwatch(startArgs, env);
    running.push(daemon);
    await waitFor('every register read', async () => {
      if (daemon.child.exitCode !== null) throw new Error(`start exited:\n${daemon.stderr()}`);
      const status = await runShortwatch(['--config', path, 'status', '--json'], env);
      const report: StatusReport = JSON.parse(status.stdout || '{"sources":[]}');
      return report.sources.length === sources.length && report.sources.every((s) => s.state === 'read');
    });
    expect(sources.every((source) => server.hits(`/${source.name}.csv`).all > 0)).toBe(true);
  }, 60_000);
});
