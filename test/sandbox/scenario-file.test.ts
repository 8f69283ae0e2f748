import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  createScenario,
  isScenarioFileError,
  loadScenarioFile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { positionsResponseSchema } from '../../src/upstream/schemas.js';
import { call } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('scenario files', () => {
  it.each([
    ['JSON', 'scenario.json', (value: unknown) => JSON.stringify(value, null, 2)],
    ['YAML', 'scenario.yaml', (value: unknown) => stringify(value)],
  ])('round-trips a stepped scenario through toJSON and %s', (_name, file, write) => {
    const original = createScenario({ seed: 9 });
    for (let i = 0; i < 20; i++) original.step();
    const path = join(dir, file);
    writeFileSync(path, write(original.toJSON()));
    const loaded = loadScenarioFile(path);
    expect(loaded.toJSON()).toEqual(original.toJSON());
    expect(loaded.issuers()).toEqual(original.issuers());
    expect(loaded.today()).toBe(original.today());
    for (const issuer of original.issuers()) {
      expect(loaded.active(issuer.svc_issuer_id)).toEqual(original.active(issuer.svc_issuer_id));
      expect(loaded.all(issuer.svc_issuer_id)).toEqual(original.all(issuer.svc_issuer_id));
    }
  });

  it('derives the active list of a hand-written file from its history', () => {
    const path = join(dir, 'hand.yaml');
    writeFileSync(
      path,
      [
        'last_updated: 2026-03-02T17:30:00Z',
        'issuers:',
        '  - svc_issuer_id: ACME',
        '    name: Acme plc',
        '    history:',
        '      - { date: 2026-02-20, value: 0.61, position_holder: "D. E. Shaw & Co., L.P." }',
        '      - { date: 2026-03-02, value: 0.7, position_holder: "D.E. SHAW & CO LP" }',
        '      - { date: 2026-02-27, value: 0.6, position_holder: Marshall Wace LLP }',
        '      - { date: 2026-03-02, value: 0.42, position_holder: Marshall Wace LLP }',
        '  - svc_issuer_id: EMPTY',
        '    name: Empty plc',
      ].join('\n'),
    );
    const scenario = loadScenarioFile(path);
    expect(scenario.lastUpdated()).toBe('2026-03-02T17:30:00Z');
    expect(scenario.today()).toBe('2026-03-02');
    expect(scenario.active('ACME')).toEqual([
      { date: '2026-03-02', value: 0.7, position_holder: 'D.E. SHAW & CO LP' },
    ]);
    expect(scenario.all('ACME')).toHaveLength(4);
    expect(scenario.active('EMPTY')).toEqual([]);
    expect(scenario.step().length).toBeGreaterThanOrEqual(1);
    expect(scenario.today()).toBe('2026-03-03');
  });

  it.each([
    [
      'a value as a string',
      {
        issuers: [
          {
            svc_issuer_id: 'A',
            name: 'A',
            history: [{ date: '2026-01-05', value: '1', position_holder: 'X' }],
          },
        ],
      },
      'issuers.0.history.0.value',
    ],
    [
      'an impossible date',
      {
        issuers: [
          {
            svc_issuer_id: 'A',
            name: 'A',
            history: [{ date: '2026-02-30', value: 1, position_holder: 'X' }],
          },
        ],
      },
      'issuers.0.history.0.date',
    ],
    [
      'a duplicate id',
      {
        issuers: [
          { svc_issuer_id: 'A', name: 'A' },
          { svc_issuer_id: 'A', name: 'B' },
        ],
      },
      'issuers.1.svc_issuer_id',
    ],
    ['no issuers', { last_updated: null }, 'issuers'],
  ])('rejects a file with %s, naming the key path', (_name, content, keyPath) => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify(content));
    const error = thrown(() => loadScenarioFile(path));
    expect(isScenarioFileError(error)).toBe(true);
    if (isScenarioFileError(error)) {
      expect(error.path).toBe(path);
      expect(error.issues.some((issue) => issue.startsWith(`${keyPath}:`))).toBe(true);
    }
  });

  it.each([
    ['a missing file', 'missing.yaml', null],
    ['broken JSON', 'broken.json', '{"issuers": ['],
    ['broken YAML', 'broken.yaml', 'issuers: [\n  - {'],
  ])('rejects %s with a typed error', (_name, file, content) => {
    const path = join(dir, file);
    if (content !== null) writeFileSync(path, content);
    const error = thrown(() => loadScenarioFile(path));
    expect(isScenarioFileError(error)).toBe(true);
  });

  it('serves a loaded scenario over HTTP', async () => {
    const path = join(dir, 'serve.json');
    writeFileSync(
      path,
      JSON.stringify({
        issuers: [
          {
            svc_issuer_id: 'A B/1',
            name: 'Odd plc',
            history: [{ date: '2026-01-05', value: 1.5, position_holder: 'X LLP' }],
          },
        ],
        last_updated: '2026-01-05T18:00:00Z',
      }),
    );
    const sandbox = await startSandbox({ scenario: loadScenarioFile(path) });
    try {
      const response = await call(sandbox, `/issuers/${encodeURIComponent('A B/1')}/positions`);
      const body = positionsResponseSchema.parse(response.json());
      expect(body.data).toEqual([{ date: '2026-01-05', value: 1.5, position_holder: 'X LLP' }]);
      expect(body.last_updated).toBe('2026-01-05T18:00:00Z');
    } finally {
      await sandbox.close();
    }
  });
});
