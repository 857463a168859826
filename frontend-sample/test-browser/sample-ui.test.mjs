// The sample UI in a real headless Chromium (Debian's, via playwright-core) against the running server with the
// scripted demo model. The server must serve the built UI at / (agui.sample-ui.dir) and pace the demo model
// (agui.llm.demo.chunk-delay > 0) so that a run takes long enough to be watched.
//   AGUI_SERVER_URL=http://127.0.0.1:8080 npm run test:browser
// BrowserIT (src/test/java/dev/aguistate/conformance) starts the packaged server so and runs this in ./mvnw verify.

import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { HttpAgent } from "@ag-ui/client";
import { SERVER_URL, openAgent, runAndWait, send, shownError, withPage } from "./browser.mjs";

const TIMEOUT = { timeout: 90_000 };

/** Starts recording every distinct text the element shows, with whether a run was going on (aria-busy). */
async function recordRenders(page, selector) {
  await page.evaluate((selector) => {
    const el = document.querySelector(selector);
    window.__renders = [];
    const record = () => {
      const text = el.innerText;
      const busy = el.getAttribute("aria-busy") === "true";
      const last = window.__renders.at(-1);
      if (!last || last.text !== text || last.busy !== busy) window.__renders.push({ text, busy });
    };
    new MutationObserver(record).observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
  }, selector);
}

const renders = (page) => page.evaluate(() => window.__renders);

/**
 * Asserts that the element showed at least three distinct texts while the run was going on before its final one,
 * and that one of them had `partial` but not yet `later`: it filled in live.
 */
async function assertFilledInLive(page, what, final, partial, later) {
  const intermediate = new Set((await renders(page)).filter((r) => r.busy && r.text !== final).map((r) => r.text));
  assert.ok(intermediate.size >= 3,
    `expected at least 3 distinct renders of the ${what} before the final one, saw ${intermediate.size}`);
  assert.ok([...intermediate].some((t) => t.includes(partial) && !t.includes(later)),
    `a render of the ${what} with ${partial} but not yet ${later}`);
}

async function threadOnServer(page) {
  const threadId = new URL(page.url()).searchParams.get("thread");
  const response = await fetch(`${SERVER_URL}/threads/${threadId}`);
  assert.equal(response.status, 200, `GET /threads/${threadId}`);
  return response.json();
}

const ingredientNames = (page) => page.locator("#recipe-card .ingredients li .name").allInnerTexts();

test("the recipe card fills in live while the agent writes the recipe", TIMEOUT, () =>
  withPage("recipe-live", async (page) => {
    await openAgent(page, "recipe");
    await recordRenders(page, "#recipe-card");
    await send(page, "Make me a pasta recipe");

    assert.equal(await shownError(page), "");
    assert.equal(await page.getByLabel("Recipe title").inputValue(), "Tomato Basil Pasta");
    assert.deepEqual(await ingredientNames(page),
      ["Spaghetti", "Cherry tomatoes", "Garlic", "Olive oil", "Fresh basil", "Parmesan"]);
    assert.equal(await page.locator("#recipe-card .instructions li").count(), 5);
    const card = await page.locator("#recipe-card").innerText();
    for (const expected of ["Beginner", "30 min", "Vegetarian", "Quick", "🍅", "400 g"]) {
      assert.ok(card.includes(expected), `the card shows ${expected}`);
    }

    // They grow towards the final card: a render with only part of the ingredients.
    await assertFilledInLive(page, "card", card, "Spaghetti", "Parmesan");
  }));

test("an ingredient added in the UI goes out as state with the next run and stays", TIMEOUT, () =>
  withPage("recipe-edit", async (page) => {
    await openAgent(page, "recipe");
    await send(page, "Make me a pasta recipe");

    await page.getByLabel("Recipe title").fill("Lemony Tomato Pasta");
    await page.getByLabel("Icon").fill("🍋");
    await page.getByLabel("Ingredient", { exact: true }).fill("Lemon zest");
    await page.getByLabel("Amount").fill("1 tsp");
    await page.getByRole("button", { name: "Add ingredient" }).click();
    await page.getByRole("button", { name: "Remove Parmesan" }).click();
    assert.deepEqual(await ingredientNames(page),
      ["Spaghetti", "Cherry tomatoes", "Garlic", "Olive oil", "Fresh basil", "Lemon zest"]);

    const requests = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/agui/recipe") requests.push(r.postDataJSON());
    });
    await send(page, "Thanks! What would you serve with it?");

    assert.equal(await shownError(page), "");
    assert.equal(requests.length, 1, "one run request");
    const sent = requests[0].state.recipe;
    assert.equal(sent.title, "Lemony Tomato Pasta");
    assert.deepEqual(sent.ingredients.at(-1), { icon: "🍋", name: "Lemon zest", amount: "1 tsp" });
    assert.ok(!sent.ingredients.some((i) => i.name === "Parmesan"), "the removed ingredient is not sent");

    // The agent's run is over: the card and the server's copy of the thread both keep the edit.
    assert.equal(await page.getByLabel("Recipe title").inputValue(), "Lemony Tomato Pasta");
    assert.ok((await ingredientNames(page)).includes("Lemon zest"));
    const stored = await threadOnServer(page);
    assert.equal(stored.state.recipe.title, "Lemony Tomato Pasta");
    assert.ok(stored.state.recipe.ingredients.some((i) => i.name === "Lemon zest"), "stored on the server");
  }));

test("a suggestion works from the card the user edited: vegan keeps the user's ingredient", TIMEOUT, () =>
  withPage("recipe-vegan", async (page) => {
    await openAgent(page, "recipe");
    await send(page, "Make me a pasta recipe");
    assert.ok((await ingredientNames(page)).includes("Parmesan"), "the demo's pasta has cheese");
    await page.getByLabel("Icon").fill("🍋");
    await page.getByLabel("Ingredient", { exact: true }).fill("Lemon zest");
    await page.getByLabel("Amount").fill("1 tsp");
    await page.getByRole("button", { name: "Add ingredient" }).click();
    const edited = await ingredientNames(page);

    await runAndWait(page, () => page.getByRole("button", { name: "Make the recipe vegan" }).click());

    assert.equal(await shownError(page), "");
    const vegan = await ingredientNames(page);
    assert.ok(!vegan.includes("Parmesan"), `the cheese is replaced: ${vegan}`);
    assert.equal(vegan.length, edited.length, `one ingredient for each: ${vegan}`);
    assert.ok(vegan.includes("Lemon zest"), `the user's ingredient stays: ${vegan}`);
    assert.ok((await page.locator("#recipe-card").innerText()).includes("Vegan"), "the card says it is vegan");
    const stored = await threadOnServer(page);
    assert.deepEqual(stored.state.recipe.ingredients.map((i) => i.name), vegan, "the server holds what the card shows");
  }));

test("rejecting the agent's document brings the previous text back", TIMEOUT, () =>
  withPage("document-reject", async (page) => {
    await openAgent(page, "document");
    const draft = "# My draft\n\nA few lines about the mountains, written by me.";
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Document text (markdown)").fill(draft);
    await page.getByRole("button", { name: "Save" }).click();
    const article = page.getByRole("article", { name: "Document text" });
    assert.ok((await article.innerText()).includes("A few lines about the mountains"));

    await recordRenders(page, "#document-view");
    await send(page, "Write a document about the sea");
    assert.equal(await shownError(page), "");
    // The proposal was shown as it was written, and stays until the user decides.
    assert.ok((await renders(page)).some((r) => r.busy && r.text.includes("A Walk by the Sea")),
      "the predicted document appeared while the agent wrote it");
    const reject = page.getByRole("button", { name: "Reject" });
    assert.ok(await reject.isVisible(),
      "no Approve/Reject: the server did not ask for confirmation (agui.samples.require-confirmation)");
    assert.ok((await article.innerText()).includes("A Walk by the Sea"), "the proposal stays on screen");

    await runAndWait(page, () => reject.click());

    assert.equal(await shownError(page), "");
    const text = await article.innerText();
    assert.ok(text.includes("A few lines about the mountains"), `the previous text is back, got: ${text}`);
    assert.ok(!text.includes("A Walk by the Sea"), "the rejected text is gone");
    assert.ok(await page.getByText("You rejected the change").isVisible(), "the page says what happened");
    assert.equal(await reject.count(), 0, "nothing left to decide");
    assert.equal((await threadOnServer(page)).state.document, draft, "the server kept the previous text");
    const status = page.locator("details[data-tool='write_document'] .tool-status");
    assert.equal((await status.innerText()).trim(), "rejected", "the rejected proposal is not shown as done");

    await page.reload();
    await page.locator("section.chat[data-runs='1']").waitFor();
    assert.equal((await status.innerText()).trim(), "rejected", "still rejected after a reload");
  }));

test("the task steps flip to completed one by one until all are done", TIMEOUT, () =>
  withPage("tasks", async (page) => {
    await openAgent(page, "tasks");
    await recordRenders(page, "#tasks-view");
    await send(page, "Plan the steps to bake a cake");

    assert.equal(await shownError(page), "");
    const steps = page.locator("#tasks-view .steps li");
    assert.equal(await steps.count(), 5);
    assert.deepEqual(await steps.evaluateAll((lis) => lis.map((li) => li.dataset.status)), Array(5).fill("completed"));
    assert.ok(await page.getByText("5 of 5 steps completed").isVisible());
    const progress = new Set((await renders(page)).map((r) => /(\d) of 5 steps completed/.exec(r.text)?.[1]).filter(Boolean));
    for (const done of ["0", "1", "2", "3", "4", "5"]) {
      assert.ok(progress.has(done), `saw ${done} of 5 completed on the way (saw ${[...progress].sort()})`);
    }
  }));

test("a slow backend tool's progress bar moves while it runs and stays after a reload", TIMEOUT, () =>
  withPage("tool-progress", async (page) => {
    await openAgent(page, "tasks");
    // every value the progress bar of the research tool shows, with whether a run was going on
    await page.evaluate(() => {
      const log = document.querySelector("section.chat");
      window.__progress = [];
      new MutationObserver(() => {
        const bar = log.querySelector(".msg.activity[data-activity='tool-progress'] progress");
        const value = bar ? bar.value : undefined;
        if (bar && window.__progress.at(-1)?.value !== value) {
          window.__progress.push({ value, busy: log.getAttribute("aria-busy") === "true" });
        }
      }).observe(log, { subtree: true, childList: true, attributes: true });
    });
    await send(page, "Research the history of cake");

    assert.equal(await shownError(page), "");
    const seen = await page.evaluate(() => window.__progress);
    const whileRunning = seen.filter((p) => p.busy).map((p) => p.value);
    assert.ok(whileRunning.length >= 4, `the bar moved while the tool ran: ${JSON.stringify(seen)}`);
    assert.ok(whileRunning.some((v) => v > 0 && v < 1), `it showed a value between 0 and 1: ${JSON.stringify(seen)}`);
    const activity = page.locator(".msg.activity[data-activity='tool-progress']");
    assert.equal(await activity.locator("progress").evaluate((bar) => bar.value), 1);
    assert.equal((await activity.innerText()).trim(), "Read source 5 of 5");

    await page.reload();
    await page.locator("section.chat[data-runs='1']").waitFor();
    assert.equal(await activity.locator("progress").evaluate((bar) => bar.value), 1, "the thread kept the activity");
  }));

test("a sub-agent's text is attributed to it in the conversation, live and after a reload", TIMEOUT, () =>
  withPage("subagent", async (page) => {
    // supervisor and researcher are examples/agents.yaml's: the supervisor hands the task to the researcher.
    await openAgent(page, "supervisor");
    // whether the researcher's words showed, labelled as its own, while the run was going on
    await page.evaluate(() => {
      const log = document.querySelector("section.chat");
      window.__subagentLive = false;
      new MutationObserver(() => {
        const own = log.querySelector(".msg.subagent[data-subagent='researcher'] p:not(.subagent-name)");
        if (own && own.textContent.length > 0 && log.getAttribute("aria-busy") === "true") window.__subagentLive = true;
      }).observe(log, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await send(page, "Ask the researcher about otters");

    assert.equal(await shownError(page), "");
    assert.ok(await page.evaluate(() => window.__subagentLive), "the researcher's text showed as its own while it ran");
    const researcher = page.getByRole("article", { name: "researcher's message" });
    assert.equal(await researcher.count(), 1);
    assert.equal(await researcher.locator(".subagent-name").innerText(), "researcher");
    const answer = await researcher.locator("p:not(.subagent-name)").innerText();
    assert.ok(answer.length > 0);
    const supervisor = page.getByRole("article", { name: "Agent's message" });
    assert.ok((await supervisor.last().innerText()).startsWith("Done: researcher returned"),
      "the supervisor's own summary is not attributed to the researcher");
    assert.equal(await page.locator(".msg.subagent").count(), 1, "only the researcher's message is");

    await page.reload();
    await page.locator("section.chat[data-runs='1']").waitFor();
    const kept = page.locator(".msg.subagent");
    assert.equal(await kept.count(), 1, "the thread kept the researcher's message, attributed");
    assert.equal(await kept.locator("p:not(.subagent-name)").innerText(), answer);
  }));

test("a reload shows the same thread: conversation and state come back from the server", TIMEOUT, () =>
  withPage("reload", async (page) => {
    await openAgent(page, "recipe");
    await send(page, "Make me a pasta recipe");
    const url = page.url();
    assert.ok(new URL(url).searchParams.get("thread"), "the thread id is in the URL");

    await page.reload();
    // The page joins the thread; nothing runs, so the server restates it in a run that ends at once.
    await page.locator("section.chat[data-runs='1']").waitFor();
    assert.equal(page.url(), url);
    assert.equal(await page.getByLabel("Agent", { exact: true }).inputValue(), "recipe");
    await page.getByLabel("Recipe title").waitFor();
    assert.equal(await page.getByLabel("Recipe title").inputValue(), "Tomato Basil Pasta");
    assert.equal((await ingredientNames(page)).length, 6);
    const log = page.getByRole("log", { name: "Conversation" });
    assert.ok((await log.innerText()).includes("Make me a pasta recipe"), "the user's message is back");
    assert.ok(await log.locator("details[data-tool='update_recipe']").isVisible(), "the tool call is back");

    // "New thread" leaves it: a new id, an empty card.
    await page.getByRole("button", { name: "New thread" }).click();
    await page.waitForURL((u) => u.searchParams.get("thread") !== new URL(url).searchParams.get("thread"));
    await page.locator("section.chat[data-runs='0']").waitFor();
    assert.equal(await page.getByLabel("Recipe title").inputValue(), "");
  }));

test("a page given ?token= sends it on every request to the server and keeps it out of the address", TIMEOUT, () =>
  withPage("token", async (page) => {
    const token = `header.${randomUUID()}.signature`;
    const sent = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith("/agui") || path.startsWith("/threads")) {
        sent.push(request.allHeaders().then((headers) => ({ path, authorization: headers.authorization })));
      }
    });
    await page.goto(`${SERVER_URL}/?agent=recipe&token=${token}`);
    await page.locator("section.chat[data-runs='0']").waitFor();
    assert.equal(new URL(page.url()).searchParams.get("token"), null, "the token left the address bar");
    await send(page, "Make me a pasta recipe");
    await page.reload(); // the tab keeps the token: the reloaded page joins the thread with it
    await page.locator("section.chat[data-runs='1']").waitFor();

    const requests = await Promise.all(sent);
    const paths = new Set(requests.map((r) => r.path));
    for (const expected of ["/agui/agents", "/agui/recipe", "/agui/recipe/connect"]) {
      assert.ok(paths.has(expected), `the page called ${expected}; it called ${[...paths].join(", ")}`);
    }
    assert.deepEqual(requests.filter((r) => r.authorization !== `Bearer ${token}`), [],
      "every request to the server carries the token");
  }));

/** The thread the page shows, from its URL. */
const threadOf = (page) => new URL(page.url()).searchParams.get("thread");

/** The text of the last answer in the conversation. */
const lastAnswer = (page) => page.locator("section.chat article.msg.assistant").last().innerText();

/** Sends a message without waiting for the run to end. */
async function start(page, text) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

/** Waits until the last answer has at least `words` words: the run is going on. */
async function answerHasWords(page, words) {
  await page.waitForFunction((words) => {
    const answers = document.querySelectorAll("section.chat article.msg.assistant");
    return (answers[answers.length - 1]?.innerText.trim().split(/\s+/).length ?? 0) >= words;
  }, words, { timeout: 20_000 });
}

/** The answer the demo model gives `text` on a fresh thread of `agent`, read by the official client, uninterrupted. */
async function uninterruptedAnswer(agent, text) {
  const client = new HttpAgent({ url: `${SERVER_URL}/agui/${agent}`, threadId: randomUUID() });
  client.addMessage({ id: randomUUID(), role: "user", content: text });
  await client.runAgent();
  return client.messages.at(-1).content;
}

const STORY = "Tell me a long story";

test("a reload mid-run joins the run: it goes on on screen and ends as it would have without the reload", TIMEOUT, () =>
  withPage("reload-mid-run", async (page) => {
    const expected = await uninterruptedAnswer("chat", STORY);
    await openAgent(page, "chat");
    await start(page, STORY);
    await answerHasWords(page, 8);
    const before = await lastAnswer(page);
    const url = page.url();

    // After the reload, every distinct text of the answer is recorded as the page draws it.
    await page.addInitScript(() => {
      window.__answers = [];
      new MutationObserver(() => {
        const answers = document.querySelectorAll("section.chat article.msg.assistant");
        const text = answers[answers.length - 1]?.innerText;
        if (text !== undefined && window.__answers.at(-1) !== text) window.__answers.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.reload();
    await page.locator("section.chat[data-runs='1']").waitFor({ timeout: 30_000 });

    assert.equal(page.url(), url, "the same thread");
    assert.equal(await shownError(page), "");
    const after = await lastAnswer(page);
    assert.equal(after, expected, "the answer ends as an uninterrupted run's does");
    const seen = await page.evaluate(() => window.__answers);
    const growing = seen.filter((t) => t.length > before.length && t.length < expected.length);
    assert.ok(growing.length >= 3,
      `the page showed the answer growing after the reload (saw ${seen.length} texts, ${growing.length} in between)`);
    assert.ok(seen.every((t) => expected.startsWith(t)), "every text shown was a beginning of the answer");
    const stored = await threadOnServer(page);
    assert.equal(stored.messages.at(-1).content, expected, "the server kept the whole answer");
  }));

test("Stop ends the run on the server and the page says stopped, not an error", TIMEOUT, () =>
  withPage("stop", async (page) => {
    await openAgent(page, "chat");
    const isStop = (r) => new URL(r.url()).pathname === `/agui/chat/stop/${threadOf(page)}`;
    const stops = [];
    page.on("response", (r) => {
      if (isStop(r)) stops.push(r);
    });
    let stopAnswered;
    await runAndWait(page, async () => {
      await start(page, STORY);
      await answerHasWords(page, 8);
      stopAnswered = page.waitForResponse(isStop);
      await page.getByRole("button", { name: "Stop" }).click();
    });

    // The server writes the run's RUN_FINISHED before it answers the stop request, so the page may show the run
    // ended before the answer has arrived: wait for the answer, not for a moment.
    assert.deepEqual(await (await stopAnswered).json(), { stopped: true });
    assert.equal(stops.length, 1, "the page asked the server to stop, once");
    assert.equal(await shownError(page), "", "a stopped run is not an error");
    assert.equal(await page.getByRole("alert").count(), 0);
    assert.equal((await page.getByRole("status").filter({ hasText: "Stopped." }).innerText()).trim(), "Stopped.");
    assert.ok(await page.getByRole("button", { name: "Stop" }).isHidden(), "nothing left to stop");
    const full = await uninterruptedAnswer("chat", STORY);
    assert.ok((await lastAnswer(page)).length < full.length, "the story was cut");

    // The thread is free again at once: the next message runs.
    await send(page, "Hello there");
    assert.equal(await shownError(page), "");
    assert.ok(await page.getByRole("status").filter({ hasText: "Stopped." }).isHidden(), "the notice is gone");
  }));

test("a failed run is shown as an error in the conversation", TIMEOUT, () =>
  withPage("error", async (page) => {
    await openAgent(page, "chat");
    // Another client's run holds the thread: the page's run is refused (409 thread_busy).
    const other = new AbortController();
    const running = await fetch(`${SERVER_URL}/agui/chat`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({
        threadId: threadOf(page), runId: randomUUID(), state: {}, tools: [], context: [], forwardedProps: {},
        messages: [{ id: randomUUID(), role: "user", content: STORY }],
      }),
      signal: other.signal,
    });
    assert.equal(running.status, 200);
    try {
      await send(page, "Hello?");
    } finally {
      other.abort();
    }
    const error = await shownError(page);
    assert.match(error, /thread_busy/);
    assert.ok(await page.getByRole("alert").isVisible());
  }, { allowConsole: /status of 409|^Agent execution failed: Error: HTTP 409/ }));

test("?agent= naming an agent the server does not have says so", TIMEOUT, () =>
  withPage("unknown-agent", async (page) => {
    await page.goto(`${SERVER_URL}/?agent=no-such-agent`);
    const alert = page.getByRole("alert");
    await alert.waitFor();
    assert.match(await alert.innerText(), /no agent named 'no-such-agent'/);
    assert.equal(await page.getByLabel("Agent", { exact: true }).count(), 0, "no picker pretending to be another agent");
    assert.equal(await page.getByRole("textbox", { name: "Message" }).count(), 0, "nothing to send to");
    await page.getByRole("link", { name: "recipe" }).click();
    await page.locator("section.chat[data-runs='0']").waitFor();
    assert.equal(await page.getByLabel("Agent", { exact: true }).inputValue(), "recipe");
  }));

test("a declarative agent's state shows as a tree that fills in while the agent writes it", TIMEOUT, () =>
  withPage("state-tree", async (page) => {
    // trip-planner is examples/agents.yaml's: the sample UI has no card for it.
    await openAgent(page, "trip-planner");
    assert.ok(await page.locator("#state-view .empty").isVisible(), "a new thread has no state yet, and says so");
    await recordRenders(page, "#state-view");
    await send(page, "Plan an itinerary for 3 days in Lisbon");

    assert.equal(await shownError(page), "");
    const tree = page.locator("#state-view");
    const final = await tree.innerText();
    for (const expected of ["itinerary", "destination", '"Lisbon"', '"Castelo de São Jorge"', '"Sintra"', '"Pena Palace"']) {
      assert.ok(final.includes(expected), `the tree shows ${expected}:\n${final}`);
    }
    assert.equal(await tree.locator('[data-path="/itinerary/days/2/title"] .tree-value').innerText(), '"Sintra"');

    await assertFilledInLive(page, "tree", final, "Alfama", "Sintra");
  }));

test("the chat agent's page shows the run's events and its state beside the conversation", TIMEOUT, () =>
  withPage("chat-events", async (page) => {
    await openAgent(page, "chat");
    await send(page, "What is the weather in Paris?");

    const types = await page.locator("#events-view li").evaluateAll((items) => items.map((li) => li.dataset.type));
    assert.deepEqual(types.slice(0, 2), ["RUN_STARTED", "TOOL_CALL_START"]);
    for (const type of ["TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT", "TEXT_MESSAGE_CONTENT"]) {
      assert.ok(types.includes(type), `the events list shows ${type}: ${types}`);
    }
    assert.equal(types.at(-1), "RUN_FINISHED");
    assert.ok((await page.locator("#events-view").innerText()).includes("get_weather"));
    assert.ok(await page.locator("#state-view").isVisible(), "the (empty) state is shown too");

    const chat = await page.locator("section.chat").boundingBox();
    const events = await page.locator("#events-view").boundingBox();
    assert.ok(events.x >= chat.x + chat.width, "the events stand beside the conversation, not under it");
    assert.ok(events.width > 400, `the events use the page's other half (${events.width}px wide)`);
  }));
