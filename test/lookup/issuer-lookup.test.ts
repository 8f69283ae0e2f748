import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/exit.js';
import { type IssuerSources, isWatched, lookupIssuer } from '../../src/lookup/issuer-lookup.js';
import { isLookupError } from '../../src/lookup/lookup-error.js';

const DIRECTORY = [
  { svc_issuer_id: 'ISS-0001', name: 'Acme plc' },
  { svc_issuer_id: 'ISS-0002', name: 'Borealis Mining plc' },
  { svc_issuer_id: 'ISS-0003', name: 'Borealis Shipping plc' },
  { svc_issuer_id: 'ISS-0004', name: 'Cobalt Energy plc' },
];

const LISTED: IssuerSources = {
  directory: DIRECTORY,
  watchlist: [
    { id: 'ISS-0001', label: 'ACME Group' },
    { name: 'borealis  MINING plc', label: 'Borealis' },
    { id: 'ISS-0999' },
  ],
};

const UNLISTED: IssuerSources = { ...LISTED, directory: null };

/** What the lookup answered: the issuer and how it was recognised, or the usage error's exit code and text. */
function outcome(argument: string, sources: IssuerSources, partial = false) {
  try {
    return lookupIssuer(argument, sources, { partial });
  } catch (error) {
    if (!isLookupError(error)) throw error;
    // The exit code the command line gives it.
    return describeFailure(error);
  }
}

describe('lookupIssuer: the issuer a command names', () => {
  it.each([
    ['an id of the issuer list', 'ISS-0004', { id: 'ISS-0004', name: 'Cobalt Energy plc', via: 'id' }],
    [
      'a name, whatever its case and spacing',
      '  cobalt   ENERGY plc ',
      { id: 'ISS-0004', name: 'Cobalt Energy plc', via: 'name' },
    ],
    ['a label of an id entry', 'acme group', { id: 'ISS-0001', name: 'Acme plc', via: 'label' }],
    ['a label of a name entry', 'Borealis', { id: 'ISS-0002', name: 'Borealis Mining plc', via: 'label' }],
    [
      'a watchlist id the list does not name (taken as given)',
      'ISS-0999',
      { id: 'ISS-0999', name: 'ISS-0999', via: 'id' },
    ],
  ])('finds %s', (_name, argument, expected) => {
    expect(outcome(argument, LISTED)).toEqual(expected);
    expect(outcome(argument, LISTED, true)).toEqual(expected);
  });

  it('finds a part of exactly one listed name only when asked to', () => {
    expect(outcome('cobalt', LISTED, true)).toEqual({
      id: 'ISS-0004',
      name: 'Cobalt Energy plc',
      via: 'partial',
    });
    expect(outcome('cobalt', LISTED)).toMatchObject({ exitCode: 2 });
  });

  it('refuses a part of several names, listing them', () => {
    expect(outcome('boreal', LISTED, true)).toEqual({
      exitCode: 2,
      message:
        '"boreal" names several issuers: Borealis Mining plc (ISS-0002), Borealis Shipping plc (ISS-0003); give the id or the whole name',
    });
  });

  it('refuses an unknown name with exit 2, naming it and the closest names', () => {
    const refused = outcome('Acme plx', LISTED, true);
    expect(refused).toMatchObject({ exitCode: 2 });
    expect(refused).toHaveProperty(
      'message',
      expect.stringContaining(
        'no issuer "Acme plx" in the issuer list or the watchlist; closest: Acme plc (ISS-0001)',
      ),
    );
  });

  it('without an issuer list, knows the watchlist only, and says so', () => {
    expect(outcome('Borealis', UNLISTED)).toEqual({
      id: 'borealis  MINING plc',
      name: 'borealis  MINING plc',
      via: 'label',
    });
    expect(outcome('ISS-0001', UNLISTED)).toEqual({ id: 'ISS-0001', name: 'ISS-0001', via: 'id' });
    expect(outcome('Cobalt Energy plc', UNLISTED)).toEqual({
      exitCode: 2,
      message:
        'no issuer "Cobalt Energy plc" on the watchlist (ISS-0001, borealis MINING plc, ISS-0999), and no issuer list is saved yet to look it up in: the daemon\'s first sweep or `shortwatch issuers` saves one',
    });
  });
});

describe('isWatched', () => {
  it.each([
    ['an id entry', { id: 'ISS-0001', name: 'Acme plc' }, LISTED, true],
    ['a name entry bound through the list', { id: 'ISS-0002', name: 'Borealis Mining plc' }, LISTED, true],
    ['a listed issuer no entry names', { id: 'ISS-0004', name: 'Cobalt Energy plc' }, LISTED, false],
    ['a name entry, no list yet', { id: 'x', name: 'Borealis Mining plc' }, UNLISTED, true],
    ['another name, no list yet', { id: 'x', name: 'Cobalt Energy plc' }, UNLISTED, false],
  ])('%s', (_name, issuer, sources, expected) => {
    expect(isWatched(issuer, sources)).toBe(expected);
  });
});
