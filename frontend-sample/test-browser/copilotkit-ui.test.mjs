// The sample UI's CopilotKit pages in a real headless Chromium against the running server with the scripted demo
// model (see sample-ui.test.mjs for how): its CopilotKit mode (copilotkit.html: @copilotkit/core, no React, runtimeUrl
// /copilotkit) and CopilotKit's thread list in React (copilotkit-threads.html: @copilotkit/react-core/v2's
// CopilotKitProvider and useThreads).

import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { SERVER_URL, withPage } from "./browser.mjs";

const TIMEOUT = { timeout: 90_000 };

/** Opens the page and waits until CopilotKit has discovered the agents and connected to the URL's thread. */
async function open(page, query) {
  await page.goto(`${SERVER_URL}/copilotkit.html?${query}`);
  await page.locator("#app[data-connected='true']").waitFor();
}

async function send(page, text) {
  const before = Number(await page.locator("#app").getAttribute("data-runs"));
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await page.locator(`#app[data-runs='${before + 1}']`).waitFor({ timeout: 30_000 });
}

const state = async (page) => JSON.parse(await page.locator("#agent-state").innerText());

test("CopilotKit mode: the recipe's state arrives through CopilotKit, and a reload reconnects to the thread", TIMEOUT, () =>
  withPage("copilotkit-recipe", async (page) => {
    await open(page, "agent=recipe");
    await send(page, "Make me a pasta recipe");
    assert.equal(await page.locator("[role=alert]").innerText(), "");
    assert.equal((await state(page)).recipe.title, "Tomato Basil Pasta");
    const conversation = await page.getByRole("log").innerText();
    assert.ok(conversation.includes("Make me a pasta recipe"));

    await page.reload();
    await page.locator("#app[data-connected='true']").waitFor();
    assert.equal(await page.getByRole("log").innerText(), conversation, "the conversation comes back");
    assert.equal((await state(page)).recipe.title, "Tomato Basil Pasta", "and so does the state");
  }));

/** The contrast ratio (WCAG) between an element's text colour and the page's background colour. */
const contrastOnPage = (page, selector) =>
  page.evaluate((selector) => {
    const rgb = (css) => css.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const l = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * l(r) + 0.7152 * l(g) + 0.0722 * l(b);
    };
    const text = lum(rgb(getComputedStyle(document.querySelector(selector)).color));
    const page = lum(rgb(getComputedStyle(document.documentElement).backgroundColor));
    return (Math.max(text, page) + 0.05) / (Math.min(text, page) + 0.05);
  }, selector);

test("CopilotKit mode: the page's change_background tool colours the whole page and its text stays readable", TIMEOUT, () =>
  withPage("copilotkit-tool", async (page) => {
    await open(page, "agent=chat");
    await send(page, "Please change the background to blue");
    assert.ok((await page.getByRole("log").innerText()).includes(`Background changed to`));
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), "rgb(0, 0, 255)",
      "the page's own background, not just the app's box");
    const contrast = await contrastOnPage(page, ".agent-description");
    assert.ok(contrast >= 4.5, `the agent's description on the blue page has a contrast of ${contrast.toFixed(2)} (WCAG AA: 4.5)`);
  }));

test("CopilotKit mode: no error box and no Stop while idle; Stop while a run goes on", TIMEOUT, () =>
  withPage("copilotkit-idle", async (page) => {
    await open(page, "agent=chat");
    assert.equal(await page.getByRole("alert").isVisible(), false, "no empty error box");
    assert.equal(await page.getByRole("button", { name: "Stop" }).isVisible(), false, "no Stop with nothing to stop");

    await page.getByRole("textbox", { name: "Message" }).fill("Tell me a long story");
    await page.getByRole("button", { name: "Send" }).click();
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.waitFor({ state: "visible" });
    await stop.click();
    await page.locator("#app[data-runs='1']").waitFor({ timeout: 30_000 });
    assert.equal(await stop.isVisible(), false, "Stop goes away when the run has ended");
    assert.equal(await page.getByRole("alert").isVisible(), false, "a stopped run is no error");
  }));

/** A thread of the chat agent with one exchange, named `name` through the thread API, as a product's threads are. */
async function namedThread(name) {
  const threadId = randomUUID();
  const run = await fetch(`${SERVER_URL}/agui/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({
      threadId, runId: randomUUID(), state: {}, tools: [], context: [], forwardedProps: {},
      messages: [{ id: randomUUID(), role: "user", content: "Hello" }],
    }),
  });
  assert.equal(run.status, 200);
  assert.match(await run.text(), /RUN_FINISHED/, "the stream ends when the run has");
  await api(`/threads/${threadId}`, { method: "PATCH", body: JSON.stringify({ name }) });
  return threadId;
}

async function api(path, init = {}) {
  const response = await fetch(`${SERVER_URL}${path}`, { ...init, headers: { "Content-Type": "application/json" } });
  assert.equal(response.status, 200, `${init.method ?? "GET"} ${path}: ${response.status}`);
  return response.json();
}

/** The names of the threads the server lists for `query` (GET /threads). */
const listedNames = async (query) => (await api(`/threads?${query}`)).threads.map((t) => t.name);

test("CopilotKit's useThreads in React lists, renames and archives threads; the server keeps what the page did", TIMEOUT, () =>
  withPage("copilotkit-threads", async (page) => {
    const tag = randomUUID().slice(0, 8);
    const [soup, bread, stew] = [`Soup ${tag}`, `Bread ${tag}`, `Stew ${tag}`];
    await namedThread(soup);
    await namedThread(bread);

    await page.goto(`${SERVER_URL}/copilotkit-threads.html?agent=chat`);
    const list = page.getByRole("region", { name: "Threads" });
    const rows = list.getByRole("listitem").filter({ hasText: tag });
    await rows.filter({ hasText: bread }).waitFor();
    assert.deepEqual(await rows.locator(".thread-name").allInnerTexts(), [bread, soup],
      "both threads, the newest first, as the server orders them");

    await list.getByRole("button", { name: `Rename ${soup}` }).click();
    await list.getByRole("textbox", { name: `New name for ${soup}` }).fill(stew);
    await list.getByRole("button", { name: "Save" }).click();
    await rows.filter({ hasText: stew }).waitFor();
    await list.getByRole("button", { name: `Archive ${bread}` }).click();
    await rows.filter({ hasText: bread }).waitFor({ state: "detached" });
    await page.locator("section.threads[data-mutating='false']").waitFor();
    assert.equal(await page.getByRole("alert").count(), 0, "no mutation was refused");

    assert.deepEqual(await listedNames(`q=${tag}`), [stew], "GET /threads: the renamed thread, not the archived one");
    assert.deepEqual(await listedNames(`q=${tag}&archived=true`), [bread], "the archived thread is kept, archived");

    // what the page shows after a reload is what the server lists, not what the hook changed in place
    await page.reload();
    await rows.first().waitFor();
    assert.deepEqual(await rows.locator(".thread-name").allInnerTexts(), [stew]);
    await list.getByRole("checkbox", { name: "Show archived" }).check();
    await rows.filter({ hasText: bread }).waitFor();
    assert.equal(await rows.filter({ hasText: bread }).getAttribute("data-archived"), "true");
  }));
