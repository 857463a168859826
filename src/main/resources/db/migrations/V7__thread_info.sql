-- A thread's info (issue 28): its name, archived flag and metadata, as the owner set them. Saved apart from the
-- thread's commits, like its summary (V5), so a rename during a run moves neither the version nor the update time.
ALTER TABLE agui_threads ADD COLUMN info json;
