// docker-compose.yml and the Dockerfile, checked by reading them (no Docker engine runs here): what they
// mount, pass and copy exists, and the config the image runs (a copy of config/example.yaml) serves the
// /healthz their health checks call.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { parseConfig } from '../../src/config/load.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const inRepo = (path: string) => existsSync(new URL(path.replace(/^\.\//, ''), ROOT));

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
const composeSchema = z.object({
  services: z.record(z.string(), service),
  secrets: z.record(z.string(), z.unknown()).optional(),
});

const composeText = read('docker-compose.yml');
const compose = composeSchema.parse(parse(composeText, { merge: true }));
const services = Object.entries(compose.services);
const shortwatchServices = services.filter(([, s]) => s.build !== undefined);
const envExample = read('.env.example');
const example = read('config/example.yaml');
const readme = read('README.md');

/** `NAME=` and `# NAME=` lines: every variable .env.example lists, required or optional. */
const listed = new Set([...envExample.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
/** The required ones (`NAME=`), each given a placeholder value as a user filling in .env would. */
const dotEnv = Object.fromEntries(
  [...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => [m[1] ?? '', `value-of-${m[1]}`]),
);
dotEnv.SHORTWATCH_UPSTREAM_URL = 'https://shorts.example.com/api';
dotEnv.SLACK_WEBHOOK_URL = 'https://hooks.slack.invalid/services/T0/B0/x';
dotEnv.SMTP_URL = 'smtp://u:p@smtp.example.com:587';

interface Instruction {
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

const instructions = dockerfile(read('Dockerfile'));
const args = (name: string) => instructions.filter((i) => i.name === name).map((i) => i.args);

/** The port of `http://127.0.0.1:<port>/healthz` in a health check command. */
function healthzPort(command: string): number | undefined {
  const match = /http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(command);
  return match ? Number(match[1]) : undefined;
}

const PINNED = /^[\w./-]+:v?\d+\.\d+\.\d+(?:-[a-z0-9.-]+)?$/;

describe('docker-compose.yml', () => {
  it('runs shortwatch and worker from the local build, plus redis and mailpit from registries', () => {
    expect(shortwatchServices.map(([name]) => name).sort()).toEqual(['shortwatch', 'worker']);
    expect(services.map(([name]) => name).sort()).toEqual(['mailpit', 'redis', 'shortwatch', 'worker']);
  });

  it('declares every secret a service mounts', () => {
    const declared = new Set(Object.keys(compose.secrets ?? {}));
    const mounted = services.flatMap(([, s]) =>
      (s.secrets ?? []).map((secret) => (typeof secret === 'string' ? secret : secret.source)),
    );
    expect(mounted.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('mounts every /run/secrets file that config/example.yaml reads (its active lines read none)', () => {
    const declared = new Set(Object.keys(compose.secrets ?? {}));
    const active = example
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .join('\n');
    const files = [...active.matchAll(/\/run\/secrets\/([\w.-]+)/g)].map((m) => m[1] ?? '');
    expect(files.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('passes only variables .env.example lists, and reads .env', () => {
    for (const [, s] of shortwatchServices) {
      expect(s.env_file).toBe('.env');
      expect(Object.keys(s.environment ?? {}).filter((name) => !listed.has(name))).toEqual([]);
    }
    expect(inRepo('.env.example')).toBe(true);
  });

  it('mounts files of the repo, or the config a user copies from config/example.yaml as the README says', () => {
    for (const [, s] of shortwatchServices) {
      for (const volume of s.volumes ?? []) {
        if (typeof volume === 'string') throw new Error(`short volume syntax: ${volume}`);
        if (volume.type !== 'bind') continue;
        const source = volume.source.replace(/^\.\//, '');
        if (!inRepo(source)) {
          expect(source).toBe('config/shortwatch.yaml');
          expect(readme).toContain(`cp config/example.yaml ${source}`);
          expect(composeText).toContain(`cp config/example.yaml ${source}`);
        }
        // The image reads its config where the file is mounted.
        expect(args('ENV').join(' ')).toContain(`SHORTWATCH_CONFIG=${volume.target}`);
      }
    }
  });

  it('serves /healthz from the copied example on the port the health checks and ports use', () => {
    for (const [name, s] of shortwatchServices) {
      const config = parseConfig(example, 'config/shortwatch.yaml', { ...dotEnv, ...s.environment });
      const port = config.http.port;
      expect(port, name).toBeDefined();
      const test = s.healthcheck?.test;
      expect(healthzPort(Array.isArray(test) ? test.join(' ') : (test ?? '')), name).toBe(port);
      for (const mapping of s.ports ?? []) expect(mapping.split(':').at(-1)).toBe(String(port));
      expect(args('EXPOSE')).toEqual([String(port)]);
      expect(args('HEALTHCHECK').map(healthzPort)).toEqual([port]);
    }
  });

  it.each(services.filter(([, s]) => s.build === undefined))('pins %s to a version tag', (_, s) => {
    expect(s.image).toMatch(PINNED);
  });

  it('runs redis with a maxmemory the README states, noeviction and AOF persistence', () => {
    const command = compose.services.redis?.command;
    const flags = Array.isArray(command) ? command : (command ?? '').split(/\s+/);
    const flag = (name: string) => flags[flags.indexOf(name) + 1];
    expect(flags).toContain('--maxmemory');
    expect(flag('--maxmemory')).toMatch(/^\d+(?:mb|gb)$/);
    expect(readme).toContain(`--maxmemory ${flag('--maxmemory')}`);
    expect(flag('--maxmemory-policy')).toBe('noeviction');
    expect(flag('--appendonly')).toBe('yes');
  });
});

describe('Dockerfile', () => {
  it('copies only files that exist in the repo', () => {
    const sources = args('COPY')
      .filter((a) => !a.startsWith('--from'))
      .flatMap((a) => a.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => !inRepo(source))).toEqual([]);
  });

  it('builds on a pinned Node image', () => {
    const defaults = args('ARG').filter((a) => a.startsWith('NODE_IMAGE='));
    expect(defaults).toHaveLength(1);
    expect(defaults[0]?.slice('NODE_IMAGE='.length)).toMatch(PINNED);
    for (const from of args('FROM')) expect(from).toMatch(/^\$\{NODE_IMAGE\}|^build\b/);
  });
});
