-- What the server remembers of a thread besides its state and messages (ThreadMeta): message arrival times and
-- open interrupts. Threads stored before it have none.
ALTER TABLE agui_threads ADD COLUMN meta json NOT NULL DEFAULT '{}';
