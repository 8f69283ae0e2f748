import { describe, expect, it } from 'vitest';
import { encodePathSegment, issuersPath, positionsPath } from '../../src/upstream/operations.js';

describe('encodePathSegment', () => {
  it.each<[string, string, string]>([
    ['plain id', 'ISS-1', 'ISS-1'],
    ['slash', 'ISS/1', 'ISS%2F1'],
    ['space', 'A B', 'A%20B'],
    ['query and fragment characters', 'a?b#c', 'a%3Fb%23c'],
    ['percent sign', '100%', '100%25'],
    ['unicode', 'Société Générale', 'Soci%C3%A9t%C3%A9%20G%C3%A9n%C3%A9rale'],
    ['emoji (surrogate pair)', '📉', '%F0%9F%93%89'],
    ['lone surrogate becomes U+FFFD instead of throwing', 'a\uD800b', 'a%EF%BF%BDb'],
    ['dot segment', '.', '%2E'],
    ['double-dot segment', '..', '%2E%2E'],
    ['dots inside an id stay', 'A.B', 'A.B'],
  ])('%s', (_name, input, expected) => {
    expect(encodePathSegment(input)).toBe(expected);
  });
});

describe('operation paths', () => {
  it('builds the issuer list path', () => {
    expect(issuersPath()).toBe('/issuers');
  });

  it('builds the positions path with an encoded id and the status', () => {
    expect(positionsPath('ISS/1', 'all')).toBe('/issuers/ISS%2F1/positions?status=all');
  });
});
