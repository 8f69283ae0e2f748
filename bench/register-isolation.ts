import * as XLSX from '@e965/xlsx';
import { type RegisterKind, registerSourceSchema } from '../src/config/schema/sources.js';
import { readRegister } from '../src/sources/health.js';
import { readIsolated } from '../src/sources/isolated-read.js';
import { REGISTER_READERS } from '../src/sources/registers.js';
import { registerBytes } from '../test/helpers/register-fixtures.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed } from './lib/stats.js';

const MB = 1024 * 1024;
const TARGET = 10 * MB;

/** The AFM's real history file with its data rows repeated until it is some 10 MB. */
function afmHistoryTenMb(): Buffer {
  const lines = registerBytes('shared:netherlands/nettoshortpositieshistorie.csv')
    .toString('latin1')
    .split('\n');
  const trailer = lines.findIndex((line, i) => i > 0 && line.trim() === '');
  const data = lines.slice(1, trailer).join('\n');
  const copies = Math.ceil(TARGET / Buffer.byteLength(data, 'latin1'));
  const body = Array.from({ length: copies }, () => data).join('\n');
  return Buffer.from([lines[0], body, ...lines.slice(trailer)].join('\n'), 'latin1');
}

/** CONSOB's real workbook with its current sheet's rows repeated until the file is some 10 MB. */
function consobTenMb(): Buffer {
  const book = XLSX.read(registerBytes('shared:italy/PncPubbl.xlsx'), { type: 'buffer' });
  const name = book.SheetNames.find((n) => /current$/i.test(n.trim())) ?? '';
  const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name] as XLSX.WorkSheet, {
    header: 1,
    raw: true,
  });
  const header = rows.slice(0, 2);
  const data = rows.slice(2);
  let copies = 1;
  let bytes = Buffer.alloc(0);
  while (bytes.length < TARGET && copies < 4_096) {
    copies *= 2;
    const sheet = XLSX.utils.aoa_to_sheet([...header, ...Array.from({ length: copies }, () => data).flat()]);
    book.Sheets[name] = sheet;
    bytes = Buffer.from(
      XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Uint8Array,
    );
  }
  return bytes;
}

interface Figures {
  ms: number;
  /** The longest the main thread's event loop was held (ms). */
  blockedMs: number;
  outcome: string;
}

async function timed(run: () => Promise<string> | string): Promise<Figures> {
  // A 5 ms ticker on the main thread: the longest gap between two ticks is how long the loop was held.
  let last = performance.now();
  let blockedMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    blockedMs = Math.max(blockedMs, now - last);
    last = now;
  }, 5);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  const outcome = await run();
  const ms = performance.now() - started;
  // One turn of the loop after the read, so that a read which held it is recorded.
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(ticker);
  return { ms, blockedMs, outcome };
}

/** Today's in-thread parse beside the worker thread's, on real register files of some 10 MB. */
export const registerIsolation: Benchmark = {
  name: 'register-isolation',
  summary: 'a 10 MB register file parsed in a worker thread (caps, memory and time limits) beside in-thread',
  async run(options: BenchOptions): Promise<BenchReport> {
    const runs = options.quick ? 1 : 3;
    const files: [string, RegisterKind, Buffer][] = [
      ['AFM history CSV', 'afm-history', afmHistoryTenMb()],
      ['CONSOB XLSX', 'it-consob', consobTenMb()],
    ];
    const rows: (string | number)[][] = [];
    for (const [label, kind, bytes] of files) {
      const source = registerSourceSchema.parse({ name: 'bench', kind, url: 'https://example.invalid/f' });
      const request = { ...source.fetch, ...source.parse, kind, bytes, mayEmpty: false };
      for (let run = 1; run <= runs; run++) {
        options.progress(`register-isolation: ${label}, run ${run}`);
        const inThread = await timed(() => readRegister(REGISTER_READERS[kind], bytes, source.fetch).status);
        // The first worker read of a process starts its thread; later ones find it waiting.
        const isolated = await timed(async () => {
          const outcome = await readIsolated(request, source.parse);
          return outcome.status === 'read' ? 'read' : `${outcome.reason}: ${outcome.detail}`;
        });
        rows.push([
          label,
          fixed(bytes.length / MB, 1),
          run,
          fixed(inThread.ms, 0),
          fixed(inThread.blockedMs, 0),
          fixed(isolated.ms, 0),
          fixed(isolated.blockedMs, 0),
          isolated.outcome,
        ]);
      }
    }
    return {
      title: 'register files of some 10 MB: in-thread parse (before) and in a worker thread (now)',
      scale: [
        'Real register rows repeated to some 10 MB: the AFM history CSV, and CONSOB current sheet written back as XLSX.',
        'In-thread: the reader and health checks on the event loop, as before issue 29. Worker: the caps on the bytes, then the same in a worker thread with the default parse limits (256 MiB heap, 60 s).',
        'Run 1 of the worker starts its thread; later runs reuse the waiting one.',
      ],
      tables: [
        {
          title: 'Time of one read and the longest the main event loop was held (ms)',
          columns: [
            'file',
            'MB',
            'run',
            'in-thread ms',
            'in-thread loop held ms',
            'worker ms',
            'worker loop held ms',
            'worker outcome',
          ],
          rows,
        },
      ],
      notes: [
        '"loop held" is the longest gap between two ticks of a 5 ms timer on the main thread during the read: what /healthz waits.',
      ],
      data: { rows },
    };
  },
};
