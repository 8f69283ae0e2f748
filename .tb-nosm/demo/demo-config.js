import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../config/load.js";
const DEMO_CONFIG_FILE = fileURLToPath(new URL("../../config/demo.yaml", import.meta.url));
function loadDemoConfig(endpoints, env, file = DEMO_CONFIG_FILE) {
  const demoEnv = {
    ...env,
    DEMO_UPSTREAM_URL: endpoints.upstreamUrl,
    DEMO_SLACK_URL: endpoints.slackUrl,
    DEMO_SMTP_PORT: String(endpoints.smtpPort),
    REDIS_URL: endpoints.redisUrl,
    DEMO_PREFIX: endpoints.prefix
  };
  return parseConfig(readFileSync(file, "utf8"), file, demoEnv);
}
export {
  DEMO_CONFIG_FILE,
  loadDemoConfig
};
