// "Did you mean" for a watchlist name that matches no issuer, against the directory of `shortwatch
// sandbox` (its default world: seed 1, 12 issuers), where the example config's names come from.
import { describe, expect, it } from 'vitest';
import { closestNames, describeProblem, resolveWatchlist } from '../../src/jobs/watchlist.js';
import { createScenario } from '../../src/sandbox/index.js';

const directory = createScenario({ seed: 1, issuers: 12 }).issuers();

describe('closestNames suggests the issuer a misspelt name meant, and no unrelated one', () => {
  it.each<[string, string, string[]]>([
    ['a typo', 'Borealis Minning plc', ['Borealis Mining plc (ISS-0007)']],
    ['another legal form', 'Borealis Mining Ltd', ['Borealis Mining plc (ISS-0007)']],
    ['a name cut short', 'Vantage Bank', ['Vantage Bank plc (ISS-0010)']],
    ['one word of the name', 'Quayside', ['Quayside Property REIT plc (ISS-0001)']],
    ['a word that is not the first', 'Pharmaceuticals', ['Hartwell Pharmaceuticals plc (ISS-0005)']],
    ['a shortened word', 'Hartwell Pharma plc', ['Hartwell Pharmaceuticals plc (ISS-0005)']],
    ['accents left out', 'Cafe Muller Holdings plc', ['Café Müller Holdings plc (ISS-0011)']],
    ['an issuer the sandbox does not list', 'Cobalt Retail Group plc', []],
    ['a short unrelated name', 'Acme plc', []],
  ])('%s: %s', (_, name, expected) => {
    expect(closestNames(name, directory)).toEqual(expected);
  });

  it('ranks the nearer name first and gives at most three', () => {
    const similar = [
      { svc_issuer_id: 'ISS-1', name: 'Northgate Holdings plc' },
      { svc_issuer_id: 'ISS-2', name: 'Northgate Holding plc' },
      { svc_issuer_id: 'ISS-3', name: 'Northgale Holdings plc' },
      { svc_issuer_id: 'ISS-4', name: 'Northgate Holdings Group plc' },
      { svc_issuer_id: 'ISS-5', name: 'Southgate Holdings plc' },
    ];
    // One edit away, then two (equal: by name), then the rest.
    expect(closestNames('Northgate Holdngs plc', similar)).toEqual([
      'Northgate Holdings plc (ISS-1)',
      'Northgale Holdings plc (ISS-3)',
      'Northgate Holding plc (ISS-2)',
    ]);
  });

  it('says "none" for a name nothing resembles', () => {
    const { problems } = resolveWatchlist([{ name: 'Cobalt Retail Group plc' }], directory);
    expect(problems.map(describeProblem)).toEqual([
      'watchlist entry "Cobalt Retail Group plc" matches no issuer; closest: none',
    ]);
  });
});
