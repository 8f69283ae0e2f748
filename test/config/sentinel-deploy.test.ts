// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is a config placeholder, not a template
// deploy/sentinel/docker-compose.yml and the redis: section it goes with, checked by reading them (no
// Docker engine runs here): one master, one replica of it, three sentinels that agree on the master group
// the config names, persistence and noeviction on both data nodes, and shortwatch processes that wait for
// the sentinels and are restarted when they exit (a stuck worker exits 1).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { parseConfig } from '../../src/config/load.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

const service = z.object({
  image: z.string().optional(),
  build: z.string().optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  restart: z.string().optional(),
});
const compose = z
  .object({ services: z.record(z.string(), service) })
  .parse(parse(read('deploy/sentinel/docker-compose.yml'), { merge: true }));
const services = compose.services;
const commandOf = (name: string) => {
  const command = services[name]?.command;
  return Array.isArray(command) ? command.join(' ') : (command ?? '');
};

const SENTINELS = ['sentinel-1', 'sentinel-2', 'sentinel-3'];

/** The `sentinel monitor <name> <host> <port> <quorum>` line of a sentinel's generated config. */
function monitorOf(name: string): { group: string; host: string; port: string; quorum: number } {
  const found = /sentinel monitor (\S+) (\S+) (\d+) (\d+)/.exec(commandOf(name));
  if (!found) throw new Error(`${name} has no sentinel monitor line`);
  return { group: found[1] ?? '', host: found[2] ?? '', port: found[3] ?? '', quorum: Number(found[4]) };
}

describe('deploy/sentinel/docker-compose.yml', () => {
  it('runs one master, one replica of it, three sentinels and the shortwatch processes', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['redis-master', 'redis-replica', ...SENTINELS, 'shortwatch', 'worker'].sort(),
    );
    expect(commandOf('redis-replica')).toContain('--replicaof redis-master 6379');
    expect(commandOf('redis-master')).not.toContain('--replicaof');
  });

  it.each(['redis-master', 'redis-replica'])('%s persists (AOF) and never evicts', (name) => {
    expect(commandOf(name)).toContain('--appendonly yes');
    expect(commandOf(name)).toContain('--maxmemory-policy noeviction');
  });

  it('has every sentinel watch the master with a majority quorum and resolve service names', () => {
    const monitors = SENTINELS.map(monitorOf);
    for (const monitor of monitors) {
      expect(monitor).toEqual({ group: 'shortwatch', host: 'redis-master', port: '6379', quorum: 2 });
      expect(monitor.quorum).toBeGreaterThan(SENTINELS.length / 2);
    }
    for (const name of SENTINELS) {
      expect(commandOf(name)).toContain('sentinel resolve-hostnames yes');
      expect(commandOf(name)).toContain('exec redis-sentinel');
    }
  });

  it.each(['shortwatch', 'worker'])('%s waits for the sentinels and is restarted when it exits', (name) => {
    const s = services[name];
    expect(Object.keys(s?.depends_on ?? {})).toEqual(expect.arrayContaining(SENTINELS));
    expect(s?.restart).toBe('unless-stopped');
    const context = new URL(`${s?.build ?? ''}/`, new URL('deploy/sentinel/', ROOT));
    expect(existsSync(new URL('Dockerfile', context))).toBe(true);
  });

  it('goes with a redis: section naming the same master group and sentinels', () => {
    const text = [
      'upstream: { baseUrl: https://shorts.example.com/api, apiKey: k }',
      'watchlist: [{ id: ISS-0001 }]',
      'channels: [{ name: out, kind: console }]',
      read('deploy/sentinel/redis-section.yaml'),
    ].join('\n');
    const config = parseConfig(text, 'deploy/sentinel/redis-section.yaml', {});
    expect(config.redis.sentinel?.name).toBe(monitorOf('sentinel-1').group);
    expect(config.redis.sentinel?.nodes).toEqual(SENTINELS.map((name) => `${name}:26379`));
    expect(config.redis.prefix).toBe('shortwatch');
  });
});
