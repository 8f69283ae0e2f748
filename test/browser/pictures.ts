import type { Page } from 'playwright-core';

/**
 * Whether the browser tests write their PNGs (under demo-out/, for looking at): `SHORTWATCH_PNGS=1`, as
 * `npm run test:pngs` sets it. The measurements (nothing wraps, nothing scrolls sideways) run either way.
 * A full-page screenshot is most of a browser test's CPU, and a suite on 2 cores has none to spare for
 * pictures nobody opens; the demo's own capture (capture-pngs.test.ts) always writes and checks its PNGs.
 */
export const WRITE_PNGS = process.env.SHORTWATCH_PNGS === '1';

/** A full-page PNG of `page` at `path` when {@link WRITE_PNGS}; nothing otherwise. */
export async function picture(page: Page, path: string): Promise<void> {
  if (WRITE_PNGS) await page.screenshot({ path, fullPage: true });
}
