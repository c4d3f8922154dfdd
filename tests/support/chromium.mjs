// The system Chromium every browser test drives (playwright-core, never a downloaded browser), and its flags.
import { chromium } from "playwright-core";

/** The browser: `/usr/bin/chromium` (from Debian), or `CHROMIUM_PATH`. */
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** The flags every headless Chromium of the tests runs with. */
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A headless Chromium with those flags. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
