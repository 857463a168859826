// `npm run screenshots`: the pictures of the sample UI in README.md and docs/sample-ui.md (docs/sample-ui-*.png), taken with Debian's
// Chromium against a running server that serves the UI (e.g. `npm start`; AGUI_SERVER_URL, default :8080).
import { fileURLToPath } from "node:url";
import { openAgent, openBrowser, send } from "../test-browser/browser.mjs";

const docs = (name) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));

const browser = await openBrowser({ viewport: { width: 1280, height: 820 } });
try {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());

  await openAgent(page, "recipe");
  await send(page, "Make me a pasta recipe");
  await page.screenshot({ path: docs("sample-ui-recipe.png"), fullPage: true });

  await openAgent(page, "document");
  await send(page, "Write a document about the sea");
  await page.screenshot({ path: docs("sample-ui-document.png"), fullPage: true });
  console.log(`saved ${docs("sample-ui-recipe.png")} and ${docs("sample-ui-document.png")}`);
} finally {
  await browser.close();
}
