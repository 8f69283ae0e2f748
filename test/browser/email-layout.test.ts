import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEmail } from '../../src/channels/email/render.js';
import { EMAIL_WIDTHS, screenshotPath, withEmailPage } from '../../src/demo/email-screenshots.js';
import { chromiumPath, launchChromium } from '../../src/demo/headless-chromium.js';
import { EMAIL_SAMPLES } from './email-samples.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';
import { picture } from './pictures.js';

// Every e-mail template, rendered by a real browser at a phone's width and a desktop's: no date, value
// or delta cell may break over two lines, and nothing may overflow sideways. The PNGs are for looking.
const OUT = join('demo-out', 'browser');

/** Per no-wrap cell: its role, its text and how many line boxes its text takes. */
interface CellLines {
  role: string;
  text: string;
  lines: number;
}

// Runs in the page (a string: the project compiles without the DOM's types). Visible cells only (an
// empty one is left out of the stacked layout); one rect per line fragment of the cell's text, and the
// fragments of one line share their top.
const MEASURE_CELLS = `[...document.querySelectorAll('td.sw-value, td.sw-delta, td.sw-date')]
.filter((cell) => cell.getClientRects().length > 0)
.map((cell) => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  const role = [...cell.classList].find((c) => c !== 'sw-td') ?? '?';
  return { role, text: cell.textContent ?? '', lines: tops.size };
})`;

/** Measures, in the page, the line boxes of every value, delta and date cell's text. */
function measureCells(page: Page): Promise<CellLines[]> {
  return page.evaluate<CellLines[]>(MEASURE_CELLS);
}

/** The page's full width: more than the viewport means something overflows sideways. */
function pageWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

let browser: Browser;

beforeAll(async () => {
  if (SKIP_WITHOUT_CHROMIUM) return;
  const path = chromiumPath();
  if (!path) throw new Error('no chromium on PATH: apt-get install -y chromium (as .ci/run does)');
  browser = await launchChromium(path);
  mkdirSync(OUT, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(SKIP_WITHOUT_CHROMIUM)(`e-mail templates in headless Chromium${CHROMIUM_NOTE}`, () => {
  it.each(EMAIL_WIDTHS.flatMap((width) => EMAIL_SAMPLES.map((sample) => ({ ...sample, width }))))(
    '$name at $width px: no value, delta or date wraps; nothing overflows',
    async ({ name, message, width }) => {
      const { html } = renderEmail(message, { timezone: 'Europe/London' });
      await withEmailPage(browser, html, width, async (page) => {
        const cells = await measureCells(page);
        expect(cells.filter((cell) => cell.lines !== 1)).toEqual([]);
        if (message.type === 'events' || message.type === 'batch') expect(cells.length).toBeGreaterThan(0);
        expect(await pageWidth(page)).toBeLessThanOrEqual(width);
        await picture(page, screenshotPath(join(OUT, name), width));
      });
    },
  );
});
