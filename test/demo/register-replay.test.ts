import { describe, expect, it } from 'vitest';
import { afmFile, anspFile, startRegisterReplay } from '../../src/demo/register-replay.js';
import { REGISTER_READERS } from '../../src/sources/registers.js';

describe('demo --registers: the replayed register files', () => {
  it('read with the AFM and FCA ANSP parsers, and change at every step', () => {
    const afm = [0, 1, 2].map((step) => REGISTER_READERS['afm-current'].read(afmFile(step)));
    const ansp = [0, 1, 2].map((step) => REGISTER_READERS['uk-ansp-current'].read(anspFile(step)));
    expect(afm.map((s) => s.issuers.length)).toEqual([2, 2, 2]);
    expect(ansp.map((s) => s.issuers.map((i) => i.aggregate?.percent))).toEqual([
      [0.8, 1.1],
      [0.95, 0.8],
      [1.1, 0.95],
    ]);
    expect(JSON.stringify(afm[0]?.issuers)).not.toBe(JSON.stringify(afm[1]?.issuers));
  });

  it('serves them with an ETag and answers a matching conditional GET with 304', async () => {
    const replay = await startRegisterReplay(60_000);
    try {
      const url = replay.sources.find((s) => s.name === 'afm')?.url ?? '';
      const first = await fetch(url);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag') ?? '';
      expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    } finally {
      await replay.close();
    }
  });
});
