import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RegisterKind } from '../../src/config/schema/sources.js';
import { REGISTER_READERS } from '../../src/sources/registers.js';
import type { RegisterSnapshot } from '../../src/sources/types.js';

// Every register file lives under test/fixtures/registers/, so a fresh clone tests them: the
// regulators' own files (`shared:<country>/…`, copied byte for byte with their provenance, encodings
// and traps in SOURCES.md) and the UK ANSP files, of which no real copy exists, built here (`uk/`).
const SHARED = fileURLToPath(new URL('../fixtures/registers/', import.meta.url));
const LOCAL = SHARED;

/** The bytes of a register fixture: `shared:<path>` from shared/, else from test/fixtures/registers/. */
export function registerBytes(path: string): Buffer {
  const file = path.startsWith('shared:') ? SHARED + path.slice('shared:'.length) : LOCAL + path;
  if (!existsSync(file)) throw new Error(`register fixture missing: ${file}`);
  return readFileSync(file);
}

/** A fixture read with the reader of `kind`. */
export function readFixture(kind: RegisterKind, path: string): RegisterSnapshot {
  return REGISTER_READERS[kind].read(registerBytes(path));
}

/** The issuer of `key` in a snapshot, or a failure naming it. */
export function issuerOf(snapshot: RegisterSnapshot, key: string): RegisterSnapshot['issuers'][number] {
  const issuer = snapshot.issuers.find((candidate) => candidate.key === key);
  if (issuer === undefined) throw new Error(`${snapshot.kind}: no issuer ${key}`);
  return issuer;
}

/** Holder name and percent of each position, highest first: what the tables assert. */
export function holdings(issuer: RegisterSnapshot['issuers'][number]): [string, number, string][] {
  return issuer.positions.map((position) => [position.holder, position.percent, position.date]);
}
