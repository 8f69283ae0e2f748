import { chromiumPath, launchChromium } from "./headless-chromium.js";
const EMAIL_WIDTHS = [375, 900];
async function withEmailPage(browser, html, width, use) {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  try {
    await page.setContent(html);
    return await use(page);
  } finally {
    await page.close();
  }
}
function screenshotPath(base, width) {
  return `${base}-${width}.png`;
}
const MAX_PENDING = 2;
function createEmailScreenshots() {
  let queue = Promise.resolve();
  let browser;
  let problem;
  let pending = 0;
  let dropped = 0;
  const start = () => {
    const path = chromiumPath();
    if (!path) return Promise.reject(new Error("no chromium on PATH"));
    browser ??= launchChromium(path);
    return browser;
  };
  const shoot = async (base, html) => {
    if (problem) return;
    try {
      const running = await start();
      for (const width of EMAIL_WIDTHS) {
        await withEmailPage(
          running,
          html,
          width,
          (page) => page.screenshot({ path: screenshotPath(base, width), fullPage: true })
        );
      }
    } catch (error) {
      problem = `e-mail PNGs not written: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
    }
  };
  return {
    add(base, html) {
      if (pending >= MAX_PENDING) {
        dropped += 1;
        return;
      }
      pending += 1;
      queue = queue.then(() => shoot(base, html)).finally(() => {
        pending -= 1;
      });
    },
    async close() {
      await queue;
      const running = await browser?.catch(() => void 0);
      await running?.close();
      return problem ?? (dropped > 0 ? `${dropped} e-mail PNGs skipped: mail came faster than pictures` : void 0);
    }
  };
}
export {
  EMAIL_WIDTHS,
  createEmailScreenshots,
  screenshotPath,
  withEmailPage
};
