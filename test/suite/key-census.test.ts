import { describe, expect, it } from 'vitest';
import { leftBehind } from '../helpers/key-census.js';

// The census after a suite run (issue 31): what it blames, and what it leaves to whoever else shares Redis.
describe('the key census after a suite run', () => {
  const before = new Set(['shortwatch:config', 'e2e-0f1e2d3c-4b5:old']);
  const prefixes = ['e2e-aaaaaaaa-111', 'dry-run-bbbbbbbb-222'];

  it('blames a new key under one of the run prefixes, plain or hash-tagged', () => {
    const after = new Set([...before, 'e2e-aaaaaaaa-111:snap', '{dry-run-bbbbbbbb-222}:outbox:x:seen']);
    expect(leftBehind(before, after, prefixes)).toEqual({
      underPrefixes: ['e2e-aaaaaaaa-111:snap', '{dry-run-bbbbbbbb-222}:outbox:x:seen'],
      outsidePrefixes: [],
    });
  });

  it('blames a new key of no test form (written outside a prefix), and spares another run of the test form', () => {
    const after = new Set([...before, 'look-alike:key', '{e2e-cccccccc-333}:snap']);
    expect(leftBehind(before, after, prefixes)).toEqual({
      underPrefixes: [],
      outsidePrefixes: ['look-alike:key'],
    });
  });

  it('never blames what was there before the run', () => {
    expect(leftBehind(before, new Set(before), prefixes)).toEqual({ underPrefixes: [], outsidePrefixes: [] });
  });
});
