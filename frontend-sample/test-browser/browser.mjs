// Debian's Chromium driven by playwright-core. Nothing here downloads a browser: playwright-core has no
// browser of its own, and we point it at /usr/bin/chromium (AGUI_CHROMIUM to use another).
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.AGUI_CHROMIUM ?? "/usr/bin/chromium";
export const SERVER_URL = (process.env.AGUI_SERVER_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");

/** A fresh browser with its own temporary profile; close() removes both. */
export async function openBrowser({ viewport = { width: 1280, height: 860 } } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  const profile = await mkdtemp(join(tmpdir(), "agui-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
