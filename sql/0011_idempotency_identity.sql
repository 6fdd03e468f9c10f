-- Idempotency keys belong to an admin token, not to a token's name: names are not unique, so a second token named
-- like the first (a stored token named 'bootstrap') got the first one's answers. `token` is the token's SHA-256 in
-- hex, the bootstrap token's too.
-- A key's answer is now kept by the write's own transaction: that transaction inserts the row when it begins (a
-- retry with the same key waits on it) and sets the answer before it commits, so a write that commits always has its
-- answer and one that rolls back leaves no row. The old rows were kept separately from their writes, under names
-- that cannot be told apart; they lived a day at most, and go.
DROP TABLE idempotency_keys;
CREATE TABLE idempotency_keys (
    token text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    -- NULL only inside the transaction that inserted the row.
    status integer,
    content_type text,
    location text,
    body bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (token, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
