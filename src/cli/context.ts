import { App } from '../app.js';
import { configPath, loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { collectSecrets } from '../config/secret.js';
import { createLogger, type Logger } from '../ops/logger.js';

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
  /** Opens the app; the command closes it with `app.stop()`. */
  openApp(): Promise<App>;
  out(text: string): void;
  options: GlobalOptions;
}

/** Loads the config named by the options or environment and builds a command context. */
export function commandContext(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const configFile = configPath(options.config, env);
  const config = loadConfig(configFile, env);
  const logger = createLogger({
    level: config.log.level,
    format: config.log.format,
    secrets: collectSecrets(config),
    destination: process.stderr,
    isTTY: process.stderr.isTTY,
  });
  return {
    config,
    configFile,
    logger,
    openApp: () => App.open(config, { logger }),
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
