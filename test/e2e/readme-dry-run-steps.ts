// The README's step 3 (the dry run against the sandbox), read from the README itself: its `export` lines
// and its `npx shortwatch` commands. Shared by the suite's dry-run test and scripts/readme-dry-run.ts
// (the 30-minute run of issue 31), so both run exactly what a reader runs.
import { readFileSync } from 'node:fs';
import { shellWords } from '../helpers/shell-words.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Step 3's shell block: its exports, in order, and its `npx shortwatch` commands, each as arguments. */
export function readmeDryRun(): { env: Record<string, string>; commands: string[][] } {
  const step = readme.slice(readme.indexOf('**3. Dry run against the sandbox**'));
  const block = /```sh\n([\s\S]*?)```/.exec(step)?.[1] ?? '';
  const env: Record<string, string> = {};
  const commands: string[][] = [];
  for (const words of block.split('\n').map(shellWords)) {
    if (words[0] === 'export')
      for (const pair of words.slice(1)) {
        const at = pair.indexOf('=');
        env[pair.slice(0, at)] = pair.slice(at + 1);
      }
    else if (words[0] === 'npx' && words[1] === 'shortwatch') commands.push(words.slice(2));
  }
  return { env, commands };
}
