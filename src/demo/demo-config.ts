import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';

/** config/demo.yaml, found beside the sources (or the build) wherever the demo is started from. */
export const DEMO_CONFIG_FILE = fileURLToPath(new URL('../../config/demo.yaml', import.meta.url));

/** The local endpoints and names the demo config's `${DEMO_*}` placeholders stand for. */
export interface DemoEndpoints {
  upstreamUrl: string;
  slackUrl: string;
  smtpPort: number;
  redisUrl: string;
  prefix: string;
}

/** The demo's config: config/demo.yaml read with the endpoints in its environment (process.env untouched). */
export function loadDemoConfig(
  endpoints: DemoEndpoints,
  env: NodeJS.ProcessEnv,
  file: string = DEMO_CONFIG_FILE,
): Config {
  const demoEnv: NodeJS.ProcessEnv = {
    ...env,
    DEMO_UPSTREAM_URL: endpoints.upstreamUrl,
    DEMO_SLACK_URL: endpoints.slackUrl,
    DEMO_SMTP_PORT: String(endpoints.smtpPort),
    REDIS_URL: endpoints.redisUrl,
    DEMO_PREFIX: endpoints.prefix,
  };
  return parseConfig(readFileSync(file, 'utf8'), file, demoEnv);
}
