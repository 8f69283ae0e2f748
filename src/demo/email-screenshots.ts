import type { Browser, Page } from 'playwright-core';
import { chromiumPath, launchChromium } from './headless-chromium.js';

/** The widths every e-mail is looked at: a small phone and a desktop mail client. */
export const EMAIL_WIDTHS = [375, 900] as const;

/** Opens `html` in a new page of `width` px, runs `use`, and closes the page. */
export async function withEmailPage<T>(
  browser: Browser,
  html: string,
  width: number,
  use: (page: Page) => Promise<T>,
): Promise<T> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  try {
    await page.setContent(html);
    return await use(page);
  } finally {
    await page.close();
  }
}

/** `<base>-375.png`: the picture of one e-mail at one width. */
export function screenshotPath(base: string, width: number): string {
  return `${base}-${width}.png`;
}

// Pictures waiting at most: a burst of mail skips some rather than delay stopping the demo for long.
const MAX_PENDING = 2;

/** Writes PNGs of e-mails, one at a time, in a browser started on the first one. */
export interface EmailScreenshots {
  /** Queues PNGs of `html` at every width, named from `base`. */
  add(base: string, html: string): void;
  /** Waits for the queued PNGs and closes the browser; says why some or all were not written, if so. */
  close(): Promise<string | undefined>;
}

/**
 * PNGs for the demo: best effort, so a machine without Chromium (or without the development
 * dependency playwright-core) still runs the demo, writing no PNG and saying why at the end.
 */
export function createEmailScreenshots(): EmailScreenshots {
  let queue: Promise<void> = Promise.resolve();
  let browser: Promise<Browser> | undefined;
  let problem: string | undefined;
  let pending = 0;
  let dropped = 0;

  const start = (): Promise<Browser> => {
    const path = chromiumPath();
    if (!path) return Promise.reject(new Error('no chromium on PATH'));
    browser ??= launchChromium(path);
    return browser;
  };

  const shoot = async (base: string, html: string): Promise<void> => {
    if (problem) return;
    try {
      const running = await start();
      for (const width of EMAIL_WIDTHS) {
        await withEmailPage(running, html, width, (page) =>
          page.screenshot({ path: screenshotPath(base, width), fullPage: true }),
        );
      }
    } catch (error) {
      problem = `e-mail PNGs not written: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  };

  return {
    add(base, html) {
      if (pending >= MAX_PENDING) {
        dropped += 1;
        return;
      }
      pending += 1;
      queue = queue
        .then(() => shoot(base, html))
        .finally(() => {
          pending -= 1;
        });
    },
    async close() {
      await queue;
      const running = await browser?.catch(() => undefined);
      await running?.close();
      return (
        problem ??
        (dropped > 0 ? `${dropped} e-mail PNGs skipped: mail came faster than pictures` : undefined)
      );
    },
  };
}
