import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

// Issue 29: a process whose connections stay stuck exits 1 for its supervisor to restart it (no rebuild in
// place). Every shipped way to run shortwatch must restart a process that exits non-zero, and
// docs/operations.md must name the setting each supervisor needs and the files that ship it.

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

const RESTARTING_COMPOSE = ['unless-stopped', 'always', 'on-failure'];
const RESTARTING_SYSTEMD = ['on-failure', 'always'];

const composeSchema = z.object({
  services: z.record(
    z.string(),
    z.object({
      command: z.union([z.string(), z.array(z.string())]).optional(),
      restart: z.string().optional(),
    }),
  ),
});

/** The services of a compose file that run `shortwatch start` or `shortwatch worker`. */
function shortwatchServices(path: string): Array<[string, string | undefined]> {
  const compose = composeSchema.parse(parse(read(path), { merge: true }));
  return Object.entries(compose.services).flatMap(([name, service]) => {
    const command = Array.isArray(service.command) ? service.command : (service.command ?? '').split(/\s+/);
    return command[0] === 'start' || command[0] === 'worker' ? [[name, service.restart]] : [];
  });
}

/** `Key=value` lines of a systemd unit's [Service] section. */
function serviceSection(path: string): Map<string, string> {
  const section =
    read(path)
      .split(/^\[/m)
      .find((part) => part.startsWith('Service]')) ?? '';
  const lines = section.split('\n').flatMap((line) => /^(\w+)=(.*)$/.exec(line.trim()) ?? []);
  const entries: Array<[string, string]> = [];
  for (let i = 0; i < lines.length; i += 3) entries.push([lines[i + 1] ?? '', lines[i + 2] ?? '']);
  return new Map(entries);
}

describe('the supervisors a stuck process exits to', () => {
  it.each(['docker-compose.yml', 'deploy/sentinel/docker-compose.yml'])(
    '%s restarts both shortwatch services when they exit',
    (path) => {
      const services = shortwatchServices(path);
      expect(services.map(([name]) => name).sort()).toEqual(['shortwatch', 'worker']);
      for (const [, restart] of services) expect(RESTARTING_COMPOSE).toContain(restart);
    },
  );

  it.each([
    ['deploy/systemd/shortwatch.service', 'start'],
    ['deploy/systemd/shortwatch-worker.service', 'worker'],
  ])('%s runs `%s` and restarts it on failure', (path, role) => {
    const unit = serviceSection(path);
    expect(unit.get('ExecStart')).toMatch(new RegExp(`bin/shortwatch\\.js ${role}$`));
    expect(RESTARTING_SYSTEMD).toContain(unit.get('Restart'));
    expect(Number(unit.get('RestartSec'))).toBeGreaterThan(0);
  });

  it('docs/operations.md names the setting of each supervisor and the files that ship it', () => {
    const docs = read('docs/operations.md');
    const section = docs.slice(docs.indexOf("### The watchdog's exit and the supervisor"));
    for (const needle of [
      'restart: unless-stopped',
      'Restart=on-failure',
      'restartPolicy',
      'docker-compose.yml',
      'deploy/sentinel/docker-compose.yml',
      'deploy/systemd/shortwatch.service',
      'deploy/systemd/shortwatch-worker.service',
    ])
      expect(section).toContain(needle);
  });
});
