import { describe, expect, it } from 'vitest';
import { holderQueryMatches } from '../../src/positions/index.js';

describe('holderQueryMatches: one fund under any spelling, a word of its name, never a fragment', () => {
  it.each([
    { query: 'shaw', holder: 'D. E. Shaw & Co', matches: true },
    { query: 'D.E. SHAW', holder: 'D. E. Shaw & Co., L.P.', matches: true },
    { query: 'deshaw', holder: 'D.E. SHAW & CO LP', matches: true },
    { query: 'D. E. Shaw & Co., L.P.', holder: 'D.E. SHAW & CO LP', matches: true },
    { query: 'e shaw', holder: 'D. E. Shaw & Co', matches: true },
    { query: 'Marshall Wace', holder: 'MARSHALL WACE LLP', matches: true },
    { query: 'wace llp', holder: 'Marshall Wace LLP', matches: true },
    { query: 'ÉLÉVATION', holder: 'Élévation Capital', matches: true },
    { query: 'shaw', holder: 'Bradshaw Capital', matches: false },
    { query: 'haw', holder: 'D. E. Shaw & Co', matches: false },
    { query: 'citadel', holder: 'D. E. Shaw & Co', matches: false },
    { query: ' & ', holder: 'D. E. Shaw & Co', matches: false },
    { query: '', holder: 'D. E. Shaw & Co', matches: false },
  ])('"$query" vs "$holder": $matches', ({ query, holder, matches }) => {
    expect(holderQueryMatches(query, holder)).toBe(matches);
  });
});
