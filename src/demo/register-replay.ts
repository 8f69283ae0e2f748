import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import type { RegisterSourceConfig } from '../config/schema/sources.js';

/** The demo's made-up issuers: ISIN-shaped, named so that no one takes them for real data. */
const ISSUERS = [
  { isin: 'NL0000000018', name: 'Demo Lighting N.V.' },
  { isin: 'NL0000000026', name: 'Demo Logistics N.V.' },
  { isin: 'GB0000000034', name: 'DEMO TELECOM PLC' },
  { isin: 'GB0000000042', name: 'DEMO HOUSING PLC' },
] as const;

const HOLDERS = ['Marshall Wace LLP', 'Citadel Advisors LLC', 'Millennium International Management LP'];

/** A register stand-in for `shortwatch demo --registers`: files that change at every step. */
export interface RegisterReplay {
  /** The sources the demo's config reads from it. */
  sources: Array<Pick<RegisterSourceConfig, 'name' | 'kind' | 'url'>>;
  close(): Promise<void>;
}

/** The day `step` days after 2026-09-01, `YYYY-MM-DD`. */
function dayOf(step: number): string {
  return new Date(Date.UTC(2026, 8, 1 + step)).toISOString().slice(0, 10);
}

/**
 * The AFM "actueel" file at `step`, as the AFM serves it (Windows-1252, `;`, quoted, a trailer): each
 * Dutch issuer's holders move by 0.05 pp a step, one of them leaves the list every third step.
 */
export function afmFile(step: number): Buffer {
  const rows = ISSUERS.filter((i) => i.isin.startsWith('NL')).flatMap((issuer, i) =>
    HOLDERS.flatMap((holder, h) => {
      if ((step + h + i) % 3 === 0 && h === 2) return [];
      const value = (0.55 + 0.1 * h + 0.05 * ((step + i) % 4)).toFixed(2);
      return [`"${holder}";"${issuer.name}";"${issuer.isin}";"${value}";"${dayOf(step)} 00:00:00"`];
    }),
  );
  const text = [
    '"Position holder";"Name of the issuer";"ISIN";"Net short position";"Position date"',
    ...rows,
    '',
    '"Disclaimer AFM CSV"',
    `"Date last update ${dayOf(step)}"`,
    '',
  ].join('\r\n');
  return iconv.encode(text, 'windows-1252');
}

/** The FCA's current ANSP at `step`: each UK issuer's aggregate from 0.2% moves, crossing 1% now and then. */
export function anspFile(step: number): Buffer {
  const [d, m, y] = dayOf(step).split('-').reverse();
  const rows = ISSUERS.filter((i) => i.isin.startsWith('GB')).map((issuer, i) => {
    const value = (0.8 + 0.15 * ((step + 2 * i) % 3)).toFixed(2);
    return `${issuer.name},${issuer.isin},${value},${d}/${m}/${y}`;
  });
  const header =
    'Name of Company,International Securities Identification Number (ISIN),Aggregated net short position (%),Position date';
  return Buffer.from([header, ...rows, ''].join('\n'));
}

/** Serves `afmFile` and `anspFile` on 127.0.0.1 with ETags, moving one step every `stepMs`. */
export async function startRegisterReplay(stepMs: number): Promise<RegisterReplay> {
  let step = 0;
  const timer = setInterval(() => {
    step++;
  }, stepMs).unref();
  const server = createServer((request, response) => {
    const body =
      request.url === '/afm.csv' ? afmFile(step) : request.url === '/ansp.csv' ? anspFile(step) : null;
    if (body === null) {
      response.writeHead(404).end();
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    response.writeHead(200, { etag, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  return {
    sources: [
      { name: 'afm', kind: 'afm-current', url: url('/afm.csv') },
      { name: 'fca', kind: 'uk-ansp-current', url: url('/ansp.csv') },
    ],
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
