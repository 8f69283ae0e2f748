import { vi } from 'vitest';
import { main } from '../../src/main.js';

/** What one CLI run gave: its exit code and everything it wrote. */
export interface MainRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `shortwatch <args>` in this process: the same `main` the binary runs, with stdout and stderr
 * captured, without the second or two a child process spends starting. One run at a time.
 */
export async function runMain(args: readonly string[]): Promise<MainRun> {
  let stdout = '';
  let stderr = '';
  const capture = (into: (text: string) => void) => (chunk: string | Uint8Array) => {
    into(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(
    capture((text) => {
      stdout += text;
    }),
  );
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(
    capture((text) => {
      stderr += text;
    }),
  );
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
