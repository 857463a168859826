// The sample UI's CopilotKit mode (copilotkit.html: @copilotkit/core, no React, runtimeUrl /copilotkit) in a real
// headless Chromium against the running server with the scripted demo model; see sample-ui.test.mjs for how.

import { test } from "node:test";
import assert from "node:assert/strict";
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

test("CopilotKit mode: the page's change_background tool runs in the page", TIMEOUT, () =>
  withPage("copilotkit-tool", async (page) => {
    await open(page, "agent=chat");
    await send(page, "Please change the background to blue");
    const background = await page.evaluate(() => document.body.style.background);
    assert.notEqual(background, "", "the tool's handler set the background");
    assert.ok((await page.getByRole("log").innerText()).includes(`Background changed to`));
  }));
