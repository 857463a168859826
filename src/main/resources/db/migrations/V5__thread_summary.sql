-- A thread's summary of its earlier conversation (issue 15): saved apart from the thread's commits, so the version
-- does not move; summary_through is the message id it covers up to, which a save compares with what it expects.
ALTER TABLE agui_threads ADD COLUMN summary json;
ALTER TABLE agui_threads ADD COLUMN summary_through text;

-- Which replica summarizes a thread now: a lock of its own, apart from the run claims in agui_thread_locks.
CREATE TABLE agui_summary_locks (
    thread_id  text        PRIMARY KEY,
    token      text        NOT NULL,
    expires_at timestamptz NOT NULL
);
