import "./style.css";
import { StrictMode, useState, type FormEvent } from "react";
import { createRoot } from "react-dom/client";
import { CopilotKitProvider, useThreads, type Thread } from "@copilotkit/react-core/v2";

/**
 * CopilotKit's thread list in React: `<CopilotKitProvider>` of `@copilotkit/react-core/v2` with its runtimeUrl pointed
 * at this server's `copilotkit` (no Node runtime in between), and a list of our own over CopilotKit's `useThreads`
 * hook, which lists, renames, archives and unarchives through CopilotKit's thread store. Our own list, not CopilotKit's
 * `<CopilotThreadsDrawer>`: that drawer renders only for a runtime that reports a CopilotKit Intelligence license or
 * entitlement in `/info` (this server reports none), and it has no rename (see docs/copilotkit.md).
 */
const agentId = new URLSearchParams(location.search).get("agent") ?? "chat";
// Beside the page, which is served at agui.http.root: CopilotKit's endpoints at their default base path under it.
const runtimeUrl = new URL("copilotkit", document.baseURI).href;

const label = (thread: Thread) => thread.name ?? "Untitled";

function ThreadRow({ thread, act }: { thread: Thread; act: ActOn }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(thread.name ?? "");
  const save = (e: FormEvent) => {
    e.preventDefault();
    setEditing(false);
    act.rename(thread.id, name.trim());
  };
  return (
    <li className="thread-row" data-thread-id={thread.id} data-archived={String(thread.archived)}>
      {editing ? (
        <form className="rename" onSubmit={save}>
          <input aria-label={`New name for ${label(thread)}`} value={name} autoFocus onChange={(e) => setName(e.target.value)} />
          <button type="submit" className="primary" disabled={name.trim() === ""}>Save</button>
          <button type="button" onClick={() => setEditing(false)}>Cancel</button>
        </form>
      ) : (
        <>
          <span className="thread-name">{label(thread)}</span>
          {thread.archived && <span className="badge">archived</span>}
          <span className="thread-actions">
            <button type="button" aria-label={`Rename ${label(thread)}`} onClick={() => setEditing(true)}>Rename</button>
            {thread.archived ? (
              <button type="button" aria-label={`Unarchive ${label(thread)}`} onClick={() => act.unarchive(thread.id)}>Unarchive</button>
            ) : (
              <button type="button" aria-label={`Archive ${label(thread)}`} onClick={() => act.archive(thread.id)}>Archive</button>
            )}
          </span>
        </>
      )}
    </li>
  );
}

interface ActOn {
  rename(id: string, name: string): void;
  archive(id: string): void;
  unarchive(id: string): void;
}

function Threads() {
  const [showArchived, setShowArchived] = useState(false);
  const threads = useThreads({ agentId, includeArchived: showArchived });
  const [failure, setFailure] = useState("");
  // The hook changes its list at once (optimistically) and resolves when the server has answered; a refusal is shown.
  const settle = (done: Promise<void>) => void done.then(() => setFailure(""), (e: unknown) => setFailure(String((e as Error)?.message ?? e)));
  const act: ActOn = {
    rename: (id, name) => settle(threads.renameThread(id, name)),
    archive: (id) => settle(threads.archiveThread(id)),
    unarchive: (id) => settle(threads.unarchiveThread(id)),
  };
  const error = failure || threads.error?.message || "";
  return (
    <section
      className="panel threads"
      aria-label="Threads"
      data-loading={String(threads.isLoading)}
      data-mutating={String(threads.isMutating)}
    >
      <div className="threads-head">
        <h2>Threads of {agentId}</h2>
        <label className="field inline">
          <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} />
          Show archived
        </label>
      </div>
      {error && <div className="error" role="alert">{error}</div>}
      {threads.isLoading ? (
        <p className="empty">Loading…</p>
      ) : threads.threads.length === 0 ? (
        <p className="empty">No threads yet.</p>
      ) : (
        <ul className="thread-list">
          {threads.threads.map((thread) => <ThreadRow key={thread.id} thread={thread} act={act} />)}
        </ul>
      )}
    </section>
  );
}

createRoot(document.getElementById("app")!).render(
  <StrictMode>
    <CopilotKitProvider runtimeUrl={runtimeUrl}>
      <header className="topbar">
        <h1>CopilotKit threads</h1>
        <a href="./copilotkit.html">CopilotKit client</a>
        <a href="./">AG-UI sample</a>
      </header>
      <main className="layout single">
        <Threads />
      </main>
    </CopilotKitProvider>
  </StrictMode>,
);
