import { App } from '../app.js';
import { loadConfigWithLazySecrets } from '../config/lazy-secrets.js';
import { configPath } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { resolvedSecretValues } from '../config/unresolved-secret.js';
import { createLogger, type Logger } from '../telemetry/logger.js';

/** Options every command understands. */
export interface GlobalOptions {
  config?: string;
  wait?: boolean;
}

/** What a command gets: the config, a logger, and a way to open the app (Redis) when it needs it. */
export interface CommandContext {
  config: Config;
  configFile: string;
  logger: Logger;
  /** The secret values the logger scrubs; a reload adds the new config's to it. */
  secrets: Set<string>;
  /** Opens the app; the command closes it with `app.stop()`. */
  openApp(): Promise<App>;
  out(text: string): void;
  options: GlobalOptions;
}

/**
 * Loads the config named by the options or environment and builds a command context. A secret that cannot
 * be read does not stop a command that never uses it (`status` needs Redis, not the Slack webhook): it
 * exits 2 naming the key where it is first needed, and `start`, `worker` and `check` require every one
 * (preflight/preflight.ts).
 */
export function commandContext(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const configFile = configPath(options.config, env);
  const config = loadConfigWithLazySecrets(configFile, env);
  const secrets = resolvedSecretValues(config);
  const logger = createLogger({
    level: config.log.level,
    format: config.log.format,
    secrets,
    destination: process.stderr,
    isTTY: process.stderr.isTTY,
  });
  return {
    config,
    configFile,
    logger,
    secrets,
    openApp: () => App.open(config, { logger, configFile }),
    out: (text) => process.stdout.write(`${text}\n`),
    options,
  };
}

/** Runs `fn` with an open app and always closes it. */
export async function withApp<T>(ctx: CommandContext, fn: (app: App) => Promise<T>): Promise<T> {
  const app = await ctx.openApp();
  try {
    return await fn(app);
  } finally {
    await app.stop(1_000);
  }
}
