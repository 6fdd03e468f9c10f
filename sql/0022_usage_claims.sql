-- Counting no one can bend (issue 48). A source (a client address, or a signed-in user) adds at most a few counted
-- uses of one sticker by one action in the hour it sends them, however many it posts and to however many replicas.
-- Each replica caps what it holds in memory; the bound across replicas is kept here, where every flush reconciles its
-- share under one advisory lock.
--
-- Nothing here names a source. A claim is the first 12 bytes of sha256(salt, source, sticker, action), the salt drawn
-- at random for the hour the uses arrived in; salts and claims are deleted two hours after their hour, and from then
-- on no claim can be tied to anything.
CREATE TABLE usage_salts (
    hour timestamptz PRIMARY KEY,
    salt bytea NOT NULL
);

CREATE TABLE usage_claims (
    hour timestamptz NOT NULL,
    claim bytea NOT NULL,
    used integer NOT NULL CHECK (used >= 0),
    PRIMARY KEY (hour, claim)
);

-- A flush's chunk is written once: its id is inserted in the same transaction, so a retry of a chunk whose COMMIT
-- answer was lost finds it and adds nothing twice. Kept a day.
CREATE TABLE usage_flushes (
    id uuid PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_flushes_at ON usage_flushes (at);
