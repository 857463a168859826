import { defineConfig } from "vite";

// `npm run dev`: Vite's dev server with hot reload, forwarding the API to a server started separately
// (`./mvnw quarkus:dev`, port 8080; AGUI_SERVER_URL to point elsewhere). `npm run build` writes dist/, which
// the Quarkus server serves at agui.http.root (/ by default) when started with -Dagui.sample-ui.dir=frontend-sample/dist.
const server = process.env.AGUI_SERVER_URL ?? "http://localhost:8080";

export default defineConfig({
  server: {
    proxy: {
      "/agui": server,
      "/threads": server,
      "/copilotkit": server,
    },
  },
  // Relative asset paths: the server serves the built pages at agui.http.root, which may not be /.
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // the AG-UI sample (index.html), its CopilotKit mode (copilotkit.html) and CopilotKit's thread list in React
    // (copilotkit-threads.html)
    rollupOptions: { input: ["index.html", "copilotkit.html", "copilotkit-threads.html"] },
  },
});
