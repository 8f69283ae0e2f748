#!/usr/bin/env node
// Runs the compiled CLI when built (the Docker image), else the TypeScript sources through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

process.env.SHORTWATCH_MAIN = '1';
const dist = new URL('../dist/main.js', import.meta.url);
if (existsSync(fileURLToPath(dist))) {
  await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}
