// `npm --prefix frontend-sample start`: the server and the sample UI together, for a newcomer.
// Installs the UI's packages if needed (npm install), builds it (dist/), then runs `./mvnw quarkus:dev` with
// -Dagui.sample-ui.dir pointing at dist/, so the server serves the page at / on its own origin.
// Extra arguments go to Maven, e.g. `npm --prefix frontend-sample start -- -Dquarkus.http.port=8090`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const sample = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(sample, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function step(title, command, args) {
  console.log(`\n==> ${title}`);
  const result = spawnSync(command, args, { cwd: sample, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\n${title} failed (${[command, ...args].join(" ")})`);
    process.exit(result.status ?? 1);
  }
}

// npm install (which keeps what is installed, unlike npm ci) when node_modules is missing or older than the lock file.
const installed = join(sample, "node_modules", ".package-lock.json");
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(join(sample, "package-lock.json")).mtimeMs) {
  step("installing the sample UI's packages (npm install)", npm, ["install", "--no-audit", "--no-fund"]);
}
step("building the sample UI (vite build -> frontend-sample/dist)", npm, ["run", "build"]);

const extra = process.argv.slice(2);
const port = extra.map((a) => /^-Dquarkus\.http\.port=(\d+)$/.exec(a)?.[1]).find(Boolean) ?? "8080";
const mvnw = join(repo, process.platform === "win32" ? "mvnw.cmd" : "mvnw");
console.log(`\n==> starting the server: open http://localhost:${port}/ when Quarkus says it is listening\n`);
const server = spawn(mvnw, ["quarkus:dev", `-Dagui.sample-ui.dir=${join(sample, "dist")}`, ...extra], {
  cwd: repo,
  stdio: "inherit",
});
// Ctrl+C reaches both processes (same terminal); only make sure we exit with the server.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
