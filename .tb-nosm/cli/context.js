import { App } from "../app.js";
import { loadConfigWithLazySecrets } from "../config/lazy-secrets.js";
import { configPath } from "../config/load.js";
import { resolvedSecretValues } from "../config/unresolved-secret.js";
import { createLogger } from "../telemetry/logger.js";
function commandContext(options, env = process.env) {
  const configFile = configPath(options.config, env);
  const config = loadConfigWithLazySecrets(configFile, env);
  const secrets = resolvedSecretValues(config);
  const logger = createLogger({
    level: config.log.level,
    format: config.log.format,
    secrets,
    destination: process.stderr,
    isTTY: process.stderr.isTTY
  });
  return {
    config,
    configFile,
    logger,
    secrets,
    openApp: () => App.open(config, { logger, configFile }),
    out: (text) => process.stdout.write(`${text}
`),
    options
  };
}
async function withApp(ctx, fn) {
  const app = await ctx.openApp();
  try {
    return await fn(app);
  } finally {
    await app.stop(1e3);
  }
}
export {
  commandContext,
  withApp
};
