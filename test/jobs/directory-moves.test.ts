import { describe, expect, it } from 'vitest';
import { directoryMoves } from '../../src/jobs/directory-moves.js';
import type { Issuer } from '../../src/upstream/schemas.js';

const issuer = (id: string): Issuer => ({ svc_issuer_id: id, name: `Issuer ${id}` });

describe('directoryMoves', () => {
  it.each<{ name: string; before: string[]; now: string[]; joined: string[]; left: string[] }>([
    { name: 'the same list: nothing moved', before: ['A', 'B'], now: ['B', 'A'], joined: [], left: [] },
    { name: 'one joins', before: ['A'], now: ['A', 'B'], joined: ['B'], left: [] },
    { name: 'one leaves', before: ['A', 'B'], now: ['A'], joined: [], left: ['B'] },
    { name: 'one joins as another leaves', before: ['A', 'B'], now: ['A', 'C'], joined: ['C'], left: ['B'] },
    { name: 'every issuer leaves', before: ['A', 'B'], now: [], joined: [], left: ['A', 'B'] },
  ])('$name', ({ before, now, joined, left }) => {
    const moves = directoryMoves(before, now.map(issuer));
    expect(moves.joined.map((i) => i.svc_issuer_id)).toEqual(joined);
    expect(moves.left).toEqual(left);
  });
});
