import { createRequire } from 'node:module';

/** The part of SheetJS's container library (its `CFB` export, untyped) these helpers use. */
interface Container {
  FileIndex: Array<{ type: number; content?: Uint8Array | number[] }>;
  FullPaths: string[];
}
interface Cfb {
  read(data: Buffer, options: { type: 'buffer' }): Container;
  write(container: Container, options: { type: 'buffer'; fileType: 'zip'; compression: boolean }): Uint8Array;
  utils: { cfb_new(): Container; cfb_add(container: Container, path: string, data: Buffer): void };
}

const require = createRequire(import.meta.url);
const { CFB } = require('@e965/xlsx') as { CFB: Cfb };

/** A zip's files (ODS, XLSX) as [path, bytes], through SheetJS's own container reader. */
export function readZip(bytes: Buffer): Array<[string, Buffer]> {
  const container = CFB.read(bytes, { type: 'buffer' });
  return container.FileIndex.flatMap((entry, index): Array<[string, Buffer]> => {
    const path = container.FullPaths[index] ?? '';
    if (entry.type !== 2 || entry.content === undefined) return [];
    return [[path.replace(/^[^/]*\//, ''), Buffer.from(entry.content)]];
  });
}

/** Files written back as a deflated zip. */
export function writeZip(files: ReadonlyArray<readonly [string, Buffer]>): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [path, data] of files) CFB.utils.cfb_add(container, path, data);
  return Buffer.from(CFB.write(container, { type: 'buffer', fileType: 'zip', compression: true }));
}
