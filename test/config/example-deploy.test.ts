// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} placeholders, not templates
// docker-compose.yml and the Dockerfile, checked by reading them (no Docker engine runs here): what they
// mount, pass and copy exists, and the config the image runs (a copy of config/example.yaml), in the
// environment compose gives each container, binds where the published port and health checks reach it and
// serves the console only behind a token. test/config/example-deploy-run.test.ts runs that setup for real.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/load.js';
import { isLoopbackBind } from '../../src/config/schema/http.js';
import type { Config } from '../../src/config/schema.js';
import {
  args,
  compose,
  composeInterpolate,
  composeText,
  containerEnv,
  freshDotEnv,
  healthcheckCommand,
  healthzPort,
  imageEnv,
  read,
  services,
  shortwatchServices,
} from './example-compose.js';

const ROOT = new URL('../../', import.meta.url);
const inRepo = (path: string) => existsSync(new URL(path.replace(/^\.\//, ''), ROOT));

const envExample = read('.env.example');
const example = read('config/example.yaml');
const readme = read('README.md');

/** `NAME=` and `# NAME=` lines: every variable .env.example lists, required or optional. */
const listed = new Set([...envExample.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
/** The .env of a fresh copy: the required variables filled in, as the README says. */
const dotEnv = freshDotEnv();
const TOKEN = 'console-token-0f3a9c-51e8d2b7c4a09f36';

/** The copied example, loaded in a container of `s` whose .env is `env`. */
const load = (s: Parameters<typeof containerEnv>[0], env: Record<string, string>): Config =>
  parseConfig(example, 'config/shortwatch.yaml', containerEnv(s, env));

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

  it.each(shortwatchServices)(
    '%s: the health check and the published port are the port and interface the copied example binds',
    (_, s) => {
      const { http } = load(s, dotEnv);
      expect(http.port).toBe(9464);
      // The check runs inside the container, on 127.0.0.1: served by a loopback bind or by 0.0.0.0.
      expect(healthzPort(healthcheckCommand(s))).toBe(http.port);
      expect(http.host === '0.0.0.0' || isLoopbackBind(http.host)).toBe(true);
      // A published port arrives on the container's own interface, never on its loopback.
      for (const mapping of s.ports ?? []) {
        expect(mapping.split(':').at(-1)).toBe(String(http.port));
        expect(http.host).toBe('0.0.0.0');
      }
      expect(args('EXPOSE')).toEqual([String(http.port)]);
      expect(args('HEALTHCHECK').map(healthzPort)).toEqual([http.port]);
    },
  );

  it('publishes the HTTP port to the host on 127.0.0.1 only', () => {
    const published = services.flatMap(([, s]) => s.ports ?? []).filter((p) => p.endsWith(':9464'));
    expect(published).toEqual(['127.0.0.1:9464:9464']);
  });

  it.each(shortwatchServices)(
    '%s with a fresh .env (no token): loads, binds 0.0.0.0 for the probes, and serves no console',
    (_, s) => {
      const { http } = load(s, dotEnv);
      expect(http).toMatchObject({ port: 9464, host: '0.0.0.0', console: false });
      expect(http.auth.token).toBeUndefined();
    },
  );

  it.each(shortwatchServices)(
    '%s with SHORTWATCH_HTTP_TOKEN in .env, and nothing else: the console is on, behind that token',
    (_, s) => {
      const { http } = load(s, { ...dotEnv, SHORTWATCH_HTTP_TOKEN: TOKEN });
      expect(http).toMatchObject({ port: 9464, host: '0.0.0.0', console: true });
      expect(http.auth.token?.reveal()).toBe(TOKEN);
    },
  );

  it.each(shortwatchServices)(
    '%s: SHORTWATCH_HTTP_CONSOLE=true in .env without a token opens nothing (compose derives it from the token)',
    (_, s) => {
      const { http } = load(s, { ...dotEnv, SHORTWATCH_HTTP_CONSOLE: 'true', SHORTWATCH_HTTP_TOKEN: '' });
      expect(http.console).toBe(false);
      expect(http.auth.token).toBeUndefined();
    },
  );

  it('substitutes its ${VAR} as compose does, from the project .env (the emulation itself)', () => {
    const env = { SET: 'x', EMPTY: '' };
    expect(composeInterpolate('${SET:+true}|${EMPTY:+true}|${UNSET:+true}', env)).toBe('true||');
    expect(composeInterpolate('${SET+y}|${EMPTY+y}|${UNSET+y}', env)).toBe('y|y|');
    expect(composeInterpolate('${EMPTY:-d}|${EMPTY-d}|${UNSET-d}|$$SET|$SET', env)).toBe('d||d|$SET|x');
    expect(() => composeInterpolate('${A:-${B}}', env)).toThrow(/nested/);
    // Every substitution of the file sits in an `environment:` value, the only place emulated here.
    const substituted = composeText
      .split('\n')
      .filter((line) => !/^\s*#/.test(line) && /\$\{/.test(line))
      .map((line) => line.trim());
    const environmentValues = shortwatchServices.flatMap(([, s]) =>
      Object.entries(s.environment ?? {}).map(([name, value]) => `${name}: ${value}`),
    );
    const unquoted = substituted.map((line) => line.replace(/: "(.*)"$/, ': $1'));
    expect(unquoted.filter((line) => !environmentValues.includes(line))).toEqual([]);
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

  it("binds the example's HTTP endpoint to 0.0.0.0, so that `docker run -p` reaches it", () => {
    expect(imageEnv.SHORTWATCH_HTTP_HOST).toBe('0.0.0.0');
  });

  it('`docker run --env-file .env` alone: the copied example loads and serves the probes only', () => {
    const { http } = parseConfig(example, 'config/shortwatch.yaml', { ...imageEnv, ...dotEnv });
    expect(http).toMatchObject({ port: 9464, host: '0.0.0.0', console: false });
  });

  it('`docker run` with SHORTWATCH_HTTP_CONSOLE=true but no token: refused, naming http.auth.token', () => {
    const env = { ...imageEnv, ...dotEnv, SHORTWATCH_HTTP_CONSOLE: 'true' };
    const error = (() => {
      try {
        parseConfig(example, 'config/shortwatch.yaml', env);
      } catch (caught) {
        return caught;
      }
    })();
    expect(isConfigError(error) && error.issues.map((issue) => issue.path)).toEqual(['http.auth.token']);
    const withToken = parseConfig(example, 'config/shortwatch.yaml', {
      ...env,
      SHORTWATCH_HTTP_TOKEN: TOKEN,
    });
    expect(withToken.http.console).toBe(true);
  });

  it('builds on a pinned Node image', () => {
    const defaults = args('ARG').filter((a) => a.startsWith('NODE_IMAGE='));
    expect(defaults).toHaveLength(1);
    expect(defaults[0]?.slice('NODE_IMAGE='.length)).toMatch(PINNED);
    for (const from of args('FROM')) expect(from).toMatch(/^\$\{NODE_IMAGE\}|^build\b/);
  });
});
