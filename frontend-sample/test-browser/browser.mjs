// Debian's Chromium driven by playwright-core. Nothing here downloads a browser: playwright-core has no
// browser of its own, and we point it at /usr/bin/chromium (AGUI_CHROMIUM to use another).
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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

const RESULTS = new URL("../test-results/", import.meta.url);

/**
 * Runs `body(page)` in a fresh browser and fails if the page logged a warning or an error (the client warns
 * when a state patch does not apply) — other than those `allowConsole` matches. A failure saves a screenshot
 * to test-results/<name>.png.
 */
export async function withPage(name, body, { allowConsole = /^$/ } = {}) {
  const browser = await openBrowser();
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const console = [];
  page.on("console", (m) => {
    if ((m.type() === "warning" || m.type() === "error") && !allowConsole.test(m.text())) console.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => console.push(`pageerror: ${e.message}`));
  try {
    await body(page);
    if (console.length > 0) throw new Error(`the page logged:\n${console.join("\n")}`);
  } catch (error) {
    await mkdir(RESULTS, { recursive: true });
    const file = new URL(`${name.replace(/[^a-z0-9]+/gi, "-")}.png`, RESULTS);
    await page.screenshot({ path: fileURLToPath(file), fullPage: true }).catch(() => {});
    error.message += `\n(screenshot: ${fileURLToPath(file)})`;
    throw error;
  } finally {
    await browser.close();
  }
}

/** Opens the sample UI on a new thread of `agent` and waits until it is ready for input. */
export async function openAgent(page, agent) {
  await page.goto(`${SERVER_URL}/?agent=${agent}`);
  await page.locator("section.chat[data-runs='0']").waitFor();
  await page.getByLabel("Agent", { exact: true }).waitFor();
}

/** Types a message, sends it and waits until that run has ended (the chat panel counts ended runs). */
export async function send(page, text) {
  await runAndWait(page, async () => {
    await page.getByRole("textbox", { name: "Message" }).fill(text);
    await page.getByRole("button", { name: "Send" }).click();
  });
}

/** Does `action`, which starts a run, and waits until the run has ended. */
export async function runAndWait(page, action, timeout = 30_000) {
  const before = Number(await page.locator("section.chat").getAttribute("data-runs"));
  await action();
  await page.locator(`section.chat[data-runs='${before + 1}']`).waitFor({ timeout });
}

/** The text of the error box, or "" when none is shown. */
export async function shownError(page) {
  const box = page.locator("section.chat .error");
  return (await box.isVisible()) ? (await box.innerText()).trim() : "";
}
