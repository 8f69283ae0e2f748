import { execFileSync } from "node:child_process";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run"
];
function chromiumPath() {
  try {
    const path = execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
    return path || void 0;
  } catch {
    return void 0;
  }
}
async function launchChromium(executablePath, extraArgs = []) {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false
  });
}
export {
  CHROMIUM_ARGS,
  chromiumPath,
  launchChromium
};
