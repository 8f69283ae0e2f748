import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { deriveActive, IssuerBook } from './issuer-book.js';
import { Random } from './prng.js';
import { DEFAULT_CHANGE_RATE } from './register-shape.js';
import { Scenario } from './scenario.js';
import { ScenarioFileError } from './scenario-file-error.js';
import { type ScenarioFile, scenarioFileSchema } from './scenario-file-schema.js';
import { OPENING_NAMES } from './scenario-seed.js';
import type { World } from './world.js';

/** Opened positions per issuer stop here in a loaded scenario (unless the file already has more). */
const LOADED_CAP = 12;

/** A scenario from parsed file data (already validated). Later steps are driven by `file.seed`. */
export function scenarioFromFile(file: ScenarioFile): Scenario {
  const books = new Map<string, IssuerBook>();
  let latest = '';
  for (const entry of file.issuers) {
    const active = entry.active ?? deriveActive(entry.history);
    for (const row of entry.history) if (row.date > latest) latest = row.date;
    const issuer = { svc_issuer_id: entry.svc_issuer_id, name: entry.name };
    books.set(
      issuer.svc_issuer_id,
      new IssuerBook(issuer, [...entry.history], [...active], Math.max(LOADED_CAP, active.length)),
    );
  }
  const world: World = {
    rng: new Random(file.seed ?? 1),
    books,
    date: file.date ?? (latest || '2026-01-05'),
    stepIndex: 0,
    changeRate: DEFAULT_CHANGE_RATE,
    reopens: [],
    flapper: undefined,
    names: OPENING_NAMES,
  };
  return new Scenario(world, file.last_updated);
}

/** Validates scenario data read from `source` (a path, for messages). */
export function parseScenarioFile(data: unknown, source: string): ScenarioFile {
  const result = scenarioFileSchema.safeParse(data);
  if (result.success) return result.data;
  throw new ScenarioFileError(
    source,
    result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
  );
}

/** Reads a scenario from a JSON (`.json`) or YAML file. */
export function loadScenarioFile(path: string): Scenario {
  let data: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    data = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScenarioFileError(path, [`cannot read: ${reason}`], { cause: error });
  }
  return scenarioFromFile(parseScenarioFile(data, path));
}
