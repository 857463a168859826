-- A claim names the run that holds it, so that any replica can tell which run is live on a thread (issue 13).
ALTER TABLE agui_thread_locks ADD COLUMN run_id TEXT NOT NULL DEFAULT '';
