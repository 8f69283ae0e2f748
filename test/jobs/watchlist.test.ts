import { describe, expect, it } from 'vitest';
import type { WatchEntry } from '../../src/config/schema.js';
import {
  closestNames,
  describeProblem,
  isWholeDirectory,
  normaliseName,
  resolveWatchlist,
  watchEntries,
  watchlistProblems,
} from '../../src/jobs/watchlist.js';
import { editDistance } from '../../src/text/edit-distance.js';
import type { Issuer } from '../../src/upstream/schemas.js';

const directory: Issuer[] = [
  { svc_issuer_id: 'ISS-0001', name: 'Borealis Mining plc' },
  { svc_issuer_id: 'ISS-0002', name: 'Quayside Property REIT plc' },
  { svc_issuer_id: 'ISS-0003', name: 'Stanmore Engineering plc' },
  { svc_issuer_id: 'ISS-0004', name: 'Acme Holdings plc' },
  { svc_issuer_id: 'ISS-0005', name: 'ACME  holdings PLC' },
  { svc_issuer_id: 'ISS-0006', name: 'Brønnøy Seafood plc' },
];

describe('resolveWatchlist', () => {
  it.each<{ name: string; entries: WatchEntry[]; dir: Issuer[] | null; watched: unknown[] }>([
    {
      name: 'an id takes the directory name',
      entries: [{ id: 'ISS-0002' }],
      dir: directory,
      watched: [{ id: 'ISS-0002', name: 'Quayside Property REIT plc' }],
    },
    {
      name: 'an id unknown to the directory is kept, named by its label',
      entries: [{ id: 'ISS-9999', label: 'Future Listing' }],
      dir: directory,
      watched: [{ id: 'ISS-9999', name: 'Future Listing', label: 'Future Listing' }],
    },
    {
      name: 'an id with neither directory nor label is named by itself',
      entries: [{ id: 'ISS-0003' }],
      dir: null,
      watched: [{ id: 'ISS-0003', name: 'ISS-0003' }],
    },
    {
      name: 'a name matches exactly',
      entries: [{ name: 'Borealis Mining plc' }],
      dir: directory,
      watched: [{ id: 'ISS-0001', name: 'Borealis Mining plc' }],
    },
    {
      name: 'a name matches whatever its case and spacing',
      entries: [{ name: '  borealis   MINING\tPLC ', label: 'Borealis' }],
      dir: directory,
      watched: [{ id: 'ISS-0001', name: 'Borealis Mining plc', label: 'Borealis' }],
    },
    {
      name: 'a name matches after NFKC (full-width letters, non-ASCII kept)',
      entries: [{ name: 'ＢＲØＮＮØＹ seafood PLC' }],
      dir: directory,
      watched: [{ id: 'ISS-0006', name: 'Brønnøy Seafood plc' }],
    },
    {
      name: 'one issuer by id and by name is watched once',
      entries: [{ id: 'ISS-0001' }, { name: 'borealis mining plc' }],
      dir: directory,
      watched: [{ id: 'ISS-0001', name: 'Borealis Mining plc' }],
    },
    {
      name: 'names wait for a directory; ids do not',
      entries: [{ name: 'Borealis Mining plc' }, { id: 'ISS-0002' }],
      dir: null,
      watched: [{ id: 'ISS-0002', name: 'ISS-0002' }],
    },
  ])('$name', ({ entries, dir, watched }) => {
    const result = resolveWatchlist(entries, dir);
    expect(result.watched).toEqual(watched);
    expect(result.problems).toEqual([]);
  });

  it('reports an unknown name with the close names only (test/jobs/closest-names.test.ts has more)', () => {
    const { watched, problems } = resolveWatchlist([{ name: 'Borealis Minning' }], directory);
    expect(watched).toEqual([]);
    expect(problems).toEqual([
      { entry: 'Borealis Minning', problem: 'unknown', candidates: ['Borealis Mining plc (ISS-0001)'] },
    ]);
  });

  it('reports a name two issuers share as ambiguous, listing both ids', () => {
    const { watched, problems } = resolveWatchlist([{ name: 'acme holdings plc' }], directory);
    expect(watched).toEqual([]);
    expect(problems).toEqual([
      {
        entry: 'acme holdings plc',
        problem: 'ambiguous',
        candidates: ['Acme Holdings plc (ISS-0004)', 'ACME  holdings PLC (ISS-0005)'],
      },
    ]);
  });

  it('keeps resolving the other entries past a problem', () => {
    const { watched, problems } = resolveWatchlist(
      [{ name: 'Nope Corp' }, { name: 'stanmore engineering plc' }],
      directory,
    );
    expect(watched.map((w) => w.id)).toEqual(['ISS-0003']);
    expect(problems.map((p) => p.entry)).toEqual(['Nope Corp']);
  });
});

describe('watchlist: all', () => {
  it('watches every issuer the directory lists, by its upstream name and with no label', () => {
    const { watched, problems } = resolveWatchlist('all', directory);
    expect(watched).toEqual(directory.map((i) => ({ id: i.svc_issuer_id, name: i.name })));
    expect(problems).toEqual([]);
  });

  it('watches nothing before a directory is known, and names no entry', () => {
    expect(resolveWatchlist('all', null)).toEqual({ watched: [], problems: [] });
    expect(watchEntries('all')).toEqual([]);
    expect(isWholeDirectory('all')).toBe(true);
    expect(isWholeDirectory([{ id: 'ISS-0001' }])).toBe(false);
  });

  it.each<{ name: string; watchlist: 'all' | WatchEntry[]; dir: Issuer[]; lines: string[] }>([
    { name: 'all over a listed directory: nothing to tell', watchlist: 'all', dir: directory, lines: [] },
    {
      name: 'all over an empty directory: nothing is polled, and that is told',
      watchlist: 'all',
      dir: [],
      lines: [
        "watchlist: all, but the upstream's issuer list is empty: no issuer is polled until it lists some",
      ],
    },
    {
      name: 'a list: an id the directory no longer names, and a name that does not resolve',
      watchlist: [{ id: 'ISS-9999' }, { id: 'ISS-0001' }, { name: 'Nope Corp' }],
      dir: directory,
      lines: [
        'watchlist entry "Nope Corp" matches no issuer; closest: none',
        `watchlist id "ISS-9999" is not in the upstream's issuer list (it left, or the id is wrong); it is asked once a day`,
      ],
    },
  ])('watchlistProblems: $name', ({ watchlist, dir, lines }) => {
    expect(watchlistProblems(watchlist, dir, resolveWatchlist(watchlist, dir))).toEqual(lines);
  });
});

describe('watchlist helpers', () => {
  it.each([
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['same', 'same', 0],
    ['flaw', 'lawn', 2],
  ])('editDistance(%j, %j) = %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it.each([
    ['  Acme   Holdings\nPLC ', 'acme holdings plc'],
    ['ＡＣＭＥ', 'acme'],
    ['Brønnøy', 'brønnøy'],
  ])('normaliseName(%j) = %j', (name, normalised) => {
    expect(normaliseName(name)).toBe(normalised);
  });

  it('closestNames orders by distance, then by name, and honours the count', () => {
    expect(closestNames('acme holdings', directory, 2)).toEqual([
      'ACME  holdings PLC (ISS-0005)',
      'Acme Holdings plc (ISS-0004)',
    ]);
    expect(closestNames('x', [], 3)).toEqual([]);
  });

  it.each([
    [
      { entry: 'Nope', problem: 'unknown' as const, candidates: ['A (1)', 'B (2)'] },
      'watchlist entry "Nope" matches no issuer; closest: A (1), B (2)',
    ],
    [
      { entry: 'Acme', problem: 'ambiguous' as const, candidates: ['Acme (1)', 'ACME (2)'] },
      'watchlist entry "Acme" matches several issuers; closest: Acme (1), ACME (2)',
    ],
    [
      { entry: 'X', problem: 'unknown' as const, candidates: [] },
      'watchlist entry "X" matches no issuer; closest: none',
    ],
  ])('describeProblem %#', (problem, text) => {
    expect(describeProblem(problem)).toBe(text);
  });
});
