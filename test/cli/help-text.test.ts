import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runMain } from './run-main.js';

// The guarantee is at least once, each message under a stable id (docs/architecture.md): nothing the user
// reads may promise more.
describe('help and docs promise at least once, never exactly once', () => {
  it('--help of every command', async () => {
    const top = await runMain(['--help']);
    const text = `${top.stdout}${top.stderr}`;
    expect(text).toContain('at least once');
    const commands = [...text.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1] ?? '');
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const help = await runMain([command, '--help']);
      expect(`${help.stdout}${help.stderr}`.toLowerCase(), command).not.toContain('exactly once');
    }
    expect(text.toLowerCase()).not.toContain('exactly once');
  });

  it.each(['README.md', 'docs/architecture.md', 'docs/operations.md', 'docs/configuration.md'])(
    '%s',
    (file) => {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').toLowerCase();
      expect(text).not.toContain('exactly once');
    },
  );
});
