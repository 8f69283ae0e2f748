import { execFileSync } from 'node:child_process';
import type { Browser } from 'playwright-core';

/** Flags for a quiet headless Chromium: no sandbox (containers, root), no GPU, nothing fetched. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/** The path of the system's `chromium` (Debian's package), or undefined when none is installed. */
export function chromiumPath(): string | undefined {
  try {
    const path = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
    return path || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Launches the system Chromium through playwright-core (a development dependency, loaded on demand):
 * never a browser playwright would download, and no signal handler of playwright's. `extraArgs` follow the quiet flags (e.g. a host-resolver rule).
 */
export async function launchChromium(
  executablePath: string,
  extraArgs: readonly string[] = [],
): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // Playwright's own signal handlers are off: on Ctrl-C they close the browser and exit 130 while the
  // caller's teardown (which closes this browser itself) is still running.
  return chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
