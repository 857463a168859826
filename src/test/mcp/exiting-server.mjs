// A minimal MCP server over stdio for the restart test (McpToolsTest): "pid" answers with its process id, "quit"
// exits the process (code 3) without answering, as a crashing server would.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
const tools = [
  { name: "pid", description: "This process's id", inputSchema: { type: "object" } },
  { name: "quit", description: "Exits at once", inputSchema: { type: "object" } },
];

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // notifications
  switch (message.method) {
    case "initialize":
      send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: "exiting", version: "1" } } });
      break;
    case "tools/list":
      send({ id: message.id, result: { tools } });
      break;
    case "tools/call":
      if (message.params.name === "quit") {
        process.stderr.write("quitting as asked\n");
        process.exit(3);
      }
      send({ id: message.id, result: { content: [{ type: "text", text: String(process.pid) }] } });
      break;
    default:
      send({ id: message.id, error: { code: -32601, message: "no such method" } });
  }
});
