// What a shortwatch container's process sees, read from docker-compose.yml, the Dockerfile and .env.example
// the way Docker would assemble it (no Docker engine runs here): the image's ENV, then `env_file: .env`, then
// the service's `environment:` after compose substituted its ${VAR} from the same .env, each later one winning.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

const ROOT = new URL('../../', import.meta.url);
export const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

const stringList = z.array(z.string());
const service = z.object({
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.union([z.string(), stringList]).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  env_file: z.union([z.string(), stringList]).optional(),
  secrets: z.array(z.union([z.string(), z.object({ source: z.string() })])).optional(),
  volumes: z
    .array(z.union([z.string(), z.object({ type: z.string(), source: z.string(), target: z.string() })]))
    .optional(),
  ports: stringList.optional(),
  healthcheck: z.object({ test: z.union([z.string(), stringList]) }).optional(),
});
export type Service = z.infer<typeof service>;
const composeSchema = z.object({
  services: z.record(z.string(), service),
  secrets: z.record(z.string(), z.unknown()).optional(),
});

export const composeText = read('docker-compose.yml');
export const compose = composeSchema.parse(parse(composeText, { merge: true }));
export const services = Object.entries(compose.services);
/** The services built from this repo: `shortwatch` and `worker`. */
export const shortwatchServices = services.filter(([, s]) => s.build !== undefined);

/** One Dockerfile instruction. */
export interface Instruction {
  name: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function dockerfile(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined.split('\n').flatMap((line) => {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    return match ? [{ name: match[1] ?? '', args: (match[2] ?? '').trim() }] : [];
  });
}

export const instructions = dockerfile(read('Dockerfile'));
export const args = (name: string) => instructions.filter((i) => i.name === name).map((i) => i.args);

/** The image's `ENV NAME=value …` (unquoted values: the Dockerfile uses no others). */
export const imageEnv: Record<string, string> = Object.fromEntries(
  args('ENV').flatMap((line) => [...line.matchAll(/([A-Z][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1], m[2]])),
);

/** The port of `http://127.0.0.1:<port>/healthz` in a health check command. */
export function healthzPort(command: string): number | undefined {
  const match = /http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(command);
  return match ? Number(match[1]) : undefined;
}

/** The command of a service's health check, as one string. */
export function healthcheckCommand(s: Service): string {
  const test = s.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

/** `NAME=value` lines of .env.example: the variables a user fills in. */
export const requiredInEnvExample = [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(
  (m) => m[1] ?? '',
);

/** A `.env` as a user makes it from .env.example: the required variables filled in, nothing else. */
export function freshDotEnv(): Record<string, string> {
  const env: Record<string, string> = Object.fromEntries(
    requiredInEnvExample.map((name) => [name, `value-of-${name}`]),
  );
  env.SHORTWATCH_UPSTREAM_URL = 'https://shorts.example.com/api';
  env.SLACK_WEBHOOK_URL = 'https://hooks.slack.invalid/services/T0/B0/x';
  env.SMTP_URL = 'smtp://u:p@smtp.example.com:587';
  return env;
}

// Compose's substitution forms (docs: "Interpolation" of the Compose file reference). Nested forms are
// refused rather than half-done, so that using one in docker-compose.yml fails here instead of passing.
const COMPOSE_PLACEHOLDER =
  /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** A value of docker-compose.yml as compose substitutes it from `env` (the shell and the project's .env). */
export function composeInterpolate(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(COMPOSE_PLACEHOLDER, (whole, braced?: string, op?: string, arg = '', bare?: string) => {
    if (whole === '$$') return '$';
    if (arg.includes('$')) throw new Error(`nested substitution is not emulated: ${whole}`);
    const value = env[braced ?? bare ?? ''];
    const set = value !== undefined;
    const filled = set && value !== '';
    switch (op) {
      case undefined:
        return value ?? '';
      case ':-':
        return filled ? value : arg;
      case '-':
        return set ? value : arg;
      case ':+':
        return filled ? arg : '';
      case '+':
        return set ? arg : '';
      default:
        throw new Error(`compose would stop on ${whole} when it is unset: not emulated`);
    }
  });
}

/** The environment of a container of `s`, whose project .env (and env_file) is `dotEnv`. */
export function containerEnv(s: Service, dotEnv: Readonly<Record<string, string>>): Record<string, string> {
  const environment = Object.fromEntries(
    Object.entries(s.environment ?? {}).map(([name, value]) => [name, composeInterpolate(value, dotEnv)]),
  );
  return { ...imageEnv, ...(s.env_file === undefined ? {} : dotEnv), ...environment };
}
