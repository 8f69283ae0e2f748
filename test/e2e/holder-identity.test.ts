import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderPage, holdersPage } from '../../src/console/pages/holders.js';
import { holderKey } from '../../src/positions/index.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { waitFor } from './harness.js';
import { AMF_FIXTURE, amfChanged } from './register-changes-more.js';
import { type RegisterStack, startRegisterStack } from './register-stack.js';

// Issue 34: one holder across registers. The AMF names Marshall Wace by its LEI (a placeholder of the
// built fixture), the AFM's real copy by name; `holders.aliases` says the name is that LEI. The console's
// holder pages and a holder watchlist (a channel whose filter names the LEI) take both as one holder.
const LEI = '213800ZZZMWACE00LP01';
const NL_FIXTURE = 'netherlands/nettoshortpositiesactueel.csv';

/** The AFM a day later: Marshall Wace raised Randstad 0.70 → 0.78; Citadel raised AMG 0.55 → 0.61. */
function afmChanged(): Buffer {
  const text = registerBytes(NL_FIXTURE).toString('latin1');
  const [header = '', ...rest] = text.split('\n');
  const rows = [
    '"Marshall Wace LLP";"Randstad N.V.";"NL0000379121";"0.78";"2025-08-13 00:00:00"',
    '"Citadel Advisors LLC";"AMG Critical Materials N.V.";"NL0000888691";"0.61";"2025-08-13 00:00:00"',
  ];
  const eol = header.endsWith('\r') ? '\r' : '';
  return Buffer.from([header, ...rows.map((row) => `${row}${eol}`), ...rest].join('\n'), 'latin1');
}

let registers: RegisterStack;

beforeAll(async () => {
  registers = await startRegisterStack(
    [
      { name: 'amf', kind: 'fr-amf', path: '/amf.csv', fixture: AMF_FIXTURE },
      { name: 'afm', kind: 'afm-current', path: '/afm.csv', fixture: NL_FIXTURE },
    ],
    {
      config: {
        holders: { aliases: [{ alias: 'Marshall Wace LLP', holder: LEI }] },
        // The holder watchlist: whatever this fund does anywhere, by the LEI one register gives.
        channels: [
          { name: 'fund', kind: 'console', filter: { holders: [LEI] } },
          { name: 'everything', kind: 'console' },
        ],
      },
    },
  );
}, 90_000);

afterAll(async () => {
  await registers?.close();
});

async function pageText(run: Promise<Awaited<ReturnType<typeof holdersPage>>>): Promise<string> {
  const result = await run;
  if (result.kind !== 'page') throw new Error('expected a page');
  return result.body.value;
}

const context = () => ({
  app: registers.app,
  csrf: '',
  query: new URLSearchParams(),
  form: new URLSearchParams(),
});

describe('a fund in France (by LEI) and the Netherlands (by name, aliased)', () => {
  it("is one holder on the console's holder pages", async () => {
    const list = await pageText(holdersPage(context()));
    expect(list).toContain(`/holders/${encodeURIComponent(`lei:${LEI}`)}`);
    expect(list).not.toContain(`/holders/${holderKey('Marshall Wace LLP')}"`);
    // Reached by the identity or by the name key an event links: the same page, both registers.
    for (const key of [`lei:${LEI}`, holderKey('Marshall Wace LLP')]) {
      const text = await pageText(holderPage(context(), key));
      for (const issuer of [
        'FORVIA',
        'WORLDLINE',
        'Randstad N.V.',
        'InPost S.A.',
        'Brunel International N.V.',
      ])
        expect(text, `${key}: ${issuer}`).toContain(issuer);
      expect(text).toContain('register amf');
      expect(text).toContain('register afm');
      expect(text).toContain('Short in 5 watched issuers now');
    }
  });

  it("is one holder in a holder watchlist: the fund's changes in both registers, nobody else's", async () => {
    registers.server.serve('/amf.csv', amfChanged());
    registers.server.serve('/afm.csv', afmChanged());
    const verdicts = async () =>
      (await registers.app.ctx.eventLog.recentLogged({ limit: 100 }))
        .filter(({ event }) => event.source !== undefined)
        .map(({ event, routes }) => {
          const fund = routes.find((r) => r.channel === 'fund')?.verdict;
          return `${event.source}|${event.issuer.name}|${event.holder}|${event.kind}|${fund}`;
        })
        .sort();
    await waitFor('the changes of both registers', async () => (await verdicts()).length >= 4, 30_000).catch(
      () => undefined,
    );
    expect(await verdicts()).toEqual([
      'afm|AMG Critical Materials N.V.|Citadel Advisors LLC|increased|skip',
      'afm|Randstad N.V.|Marshall Wace LLP|increased|send',
      'amf|FORVIA|AQR Capital Management, LLC|closed|skip',
      'amf|FORVIA|Marshall Wace LLP|increased|send',
    ]);
    const french = (await registers.app.ctx.eventLog.recent({ limit: 100 })).find(
      (e) => e.source === 'amf' && e.holder === 'Marshall Wace LLP',
    );
    expect(french?.holderLei).toBe(LEI);
  });
});
