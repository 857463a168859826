-- Threads, shared scopes and run claims of agui-state-server (PostgresThreadStore).
-- Tables are prefixed agui_ so that the database can hold other data.

-- Ids sort bytewise (COLLATE "C") like Java strings, so listings break ties as ThreadSummary.NEWEST_FIRST does.
-- state and messages are json, not jsonb: jsonb would reorder the state's keys, whose order the state prompt keeps.
CREATE TABLE agui_threads (
    thread_id     text COLLATE "C" PRIMARY KEY,
    owner         text        NOT NULL,
    agent         text        NOT NULL,
    state         json        NOT NULL,
    messages      json        NOT NULL,
    message_count integer     NOT NULL,
    version       bigint      NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);

CREATE INDEX agui_threads_by_owner ON agui_threads (owner, updated_at DESC, thread_id);
CREATE INDEX agui_threads_by_expiry ON agui_threads (expires_at);

CREATE TABLE agui_scopes (
    scope   text   PRIMARY KEY,
    state   json   NOT NULL,
    version bigint NOT NULL
);

CREATE TABLE agui_thread_locks (
    thread_id  text        PRIMARY KEY,
    token      text        NOT NULL,
    expires_at timestamptz NOT NULL
);
