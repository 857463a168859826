-- Threads are keyed by their owner and their id (issue 23): thread ids are the clients' choice, so each owner has ids
-- of their own, and an id one user holds tells another nothing. Every stored thread already names its owner, so
-- existing threads keep their owner and id. Run claims and summarizing locks are keyed the same way: a claim held
-- now is given the owner of its thread; one whose thread is not stored yet (a run before its first checkpoint)
-- keeps an empty owner, names no thread any more and lapses within agui.store.lock-ttl. Replicas from before this
-- migration cannot share the database with those after it (their statements name the old keys): stop them first.
ALTER TABLE agui_threads DROP CONSTRAINT agui_threads_pkey;
ALTER TABLE agui_threads ADD PRIMARY KEY (owner, thread_id);
-- The owner index (V1) stays: listings read it by owner, newest first.

ALTER TABLE agui_thread_locks ADD COLUMN owner text NOT NULL DEFAULT '';
UPDATE agui_thread_locks l SET owner = t.owner FROM agui_threads t WHERE t.thread_id = l.thread_id;
ALTER TABLE agui_thread_locks DROP CONSTRAINT agui_thread_locks_pkey;
ALTER TABLE agui_thread_locks ADD PRIMARY KEY (owner, thread_id);
ALTER TABLE agui_thread_locks ALTER COLUMN owner DROP DEFAULT;

ALTER TABLE agui_summary_locks ADD COLUMN owner text NOT NULL DEFAULT '';
UPDATE agui_summary_locks l SET owner = t.owner FROM agui_threads t WHERE t.thread_id = l.thread_id;
ALTER TABLE agui_summary_locks DROP CONSTRAINT agui_summary_locks_pkey;
ALTER TABLE agui_summary_locks ADD PRIMARY KEY (owner, thread_id);
ALTER TABLE agui_summary_locks ALTER COLUMN owner DROP DEFAULT;
