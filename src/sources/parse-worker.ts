// The worker thread register files are parsed in (src/sources/isolated-read.ts starts it): one file per
// message, one answer per file.
import { parentPort } from 'node:worker_threads';
import { parseRequestSchema, readChecked } from './parse-request.js';

parentPort?.on('message', (message: unknown) => {
  const request = parseRequestSchema.safeParse(message);
  parentPort?.postMessage(
    request.success
      ? readChecked(request.data)
      : { status: 'not-read', reason: 'unparseable', detail: 'the parser was handed no file' },
  );
});
