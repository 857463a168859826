// Mastra's AG-UI server, as a Mastra app serves AG-UI: a Mastra Agent on an OpenAI-compatible model, run through
// @ag-ui/mastra's MastraAgent, each event written with @ag-ui/encoder's EventEncoder as it comes (the encoder
// every AG-UI server in TypeScript uses). For bench/wire-bytes.sh; needs Node 22+ and the packages named there.
// Usage: node mastra-agui.mjs PORT UPSTREAM_BASE_URL
import http from "node:http";
import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import { createOpenAI } from "@ai-sdk/openai";
import { MastraAgent } from "@ag-ui/mastra";
import { EventEncoder } from "@ag-ui/encoder";

const [port, baseURL] = process.argv.slice(2);
const openai = createOpenAI({ baseURL, apiKey: "bench" });
const chat = new Agent({ name: "chat", instructions: "You are a helpful assistant.", model: openai.chat("bench") });
const mastra = new Mastra({ agents: { chat } });

http.createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    const input = JSON.parse(body);
    const encoder = new EventEncoder({ accept: request.headers.accept });
    response.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
    const agent = MastraAgent.getLocalAgent({ mastra, agentId: "chat", resourceId: input.threadId });
    agent.run({ tools: [], context: [], state: {}, forwardedProps: {}, ...input }).subscribe({
      next: (event) => response.write(encoder.encode(event)),
      error: (error) => response.end(encoder.encode({ type: "RUN_ERROR", message: String(error) })),
      complete: () => response.end(),
    });
  });
}).listen(Number(port), "127.0.0.1", () => console.log("ready"));
