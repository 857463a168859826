-- Each run's events (issue 13), so that a client can resume a run or follow it from another replica. A log's expiry
-- is a row of its own: a long run's first entries must not expire before its last, and moving one row per append
-- is cheaper than moving all of them. Expired logs are deleted by the periodic clean-up.
CREATE TABLE agui_run_logs (
    run_key    TEXT        PRIMARY KEY,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX agui_run_logs_expires_at ON agui_run_logs (expires_at);

CREATE TABLE agui_run_events (
    run_key TEXT   NOT NULL,
    seq     BIGINT NOT NULL,
    json    TEXT   NOT NULL,
    PRIMARY KEY (run_key, seq)
);
