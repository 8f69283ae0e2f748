import { chromiumPath } from '../../src/demo/headless-chromium.js';

/**
 * Browser tests need Debian's `chromium`; `.ci/run` installs it, so under CI they always run (and fail
 * loudly if it is missing). On a developer's machine without it they are skipped, and the suite's title
 * says why, so `npm ci && npm test` still passes on a fresh machine with only Node and Redis.
 */
export const SKIP_WITHOUT_CHROMIUM = chromiumPath() === undefined && !process.env.CI;

/** The suffix of a browser suite's title: how to make it run. */
export const CHROMIUM_NOTE = SKIP_WITHOUT_CHROMIUM
  ? ' — SKIPPED: no `chromium` on PATH (apt-get install chromium, as .ci/run does)'
  : '';
