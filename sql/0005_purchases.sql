-- Purchases: users and their purchase tokens, every webhook delivery (the inbox, and quarantine for the refused), the
-- state of every transaction, the bindings of App Store transactions to users, and an append-only audit.

CREATE TABLE users (
    id text PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 255),
    -- What the app passes to StoreKit as appAccountToken, so that App Store notifications name the user.
    purchase_token uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Every delivery, stored raw. Accepted ones are unique per (source, environment, event id); refused ones (bad
-- signature, wrong app, malformed, or an id already used by a different body) are kept apart, for replay.
CREATE TABLE webhook_events (
    id bigserial PRIMARY KEY,
    source text NOT NULL,
    environment text NOT NULL,
    -- NULL for a body too malformed to name its event.
    event_id text,
    body bytea NOT NULL,
    body_sha256 text NOT NULL,
    -- The generic webhook's Sticker-Signature header, so that a replay can check it again.
    signature text,
    -- The signed-in user who posted a StoreKit transaction (source apple-client), whom it binds to.
    user_id text,
    quarantined boolean NOT NULL,
    status text NOT NULL CHECK (status IN ('received', 'applied', 'stale', 'ignored', 'orphaned', 'conflict', 'malformed',
                                            'unauthorized', 'rejected')),
    detail text,
    received_at timestamptz NOT NULL DEFAULT now(),
    processed_at timestamptz
);
-- Bodies are mostly base64 (JWS), which compresses poorly: kept out of line uncompressed, pglz was a tenth of intake.
ALTER TABLE webhook_events ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE UNIQUE INDEX webhook_events_inbox ON webhook_events (source, environment, event_id) WHERE NOT quarantined;
CREATE INDEX webhook_events_status ON webhook_events (status, id);

-- What is known of each transaction: each field as the newest event that stated it (Purchases.TransactionState).
CREATE TABLE purchases (
    source text NOT NULL,
    transaction_id text NOT NULL,
    environment text NOT NULL,
    original_transaction_id text NOT NULL,
    product_id text NOT NULL,
    -- NULL while nobody is known to own it (an orphan), until a binding appears.
    user_id text,
    app_account_token uuid,
    purchased_at timestamptz NOT NULL,
    expires_at timestamptz,
    expiry_as_of timestamptz,
    revoked_at timestamptz,
    revocation_as_of timestamptz NOT NULL,
    as_of timestamptz NOT NULL,
    PRIMARY KEY (source, transaction_id)
);
CREATE INDEX purchases_user ON purchases (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX purchases_orphans ON purchases (original_transaction_id) WHERE user_id IS NULL;

-- App Store transactions a client posted: the original transaction belongs to that user.
CREATE TABLE purchase_bindings (
    original_transaction_id text PRIMARY KEY,
    user_id text NOT NULL,
    bound_at timestamptz NOT NULL DEFAULT now()
);

-- Every grant, revoke, restore, stale event, binding and transfer, with the event that caused it.
CREATE TABLE entitlement_audit (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    user_id text,
    product_id text,
    action text NOT NULL,
    source text NOT NULL,
    transaction_id text,
    webhook_event_id bigint REFERENCES webhook_events (id),
    detail text
);
CREATE INDEX entitlement_audit_user ON entitlement_audit (user_id, id);

CREATE FUNCTION entitlement_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the entitlement audit is append-only';
END
$$;
CREATE TRIGGER entitlement_audit_append_only BEFORE UPDATE OR DELETE ON entitlement_audit
    FOR EACH ROW EXECUTE FUNCTION entitlement_audit_append_only();

-- Every replica keeps users' entitlements in memory: tell them whose changed.
CREATE FUNCTION purchases_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        PERFORM pg_notify('entitlements', u)
        FROM (SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows) AS changed (u) WHERE u IS NOT NULL;
    ELSE
        PERFORM pg_notify('entitlements', u) FROM (SELECT DISTINCT user_id FROM new_rows) AS changed (u) WHERE u IS NOT NULL;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER purchases_inserted AFTER INSERT ON purchases REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION purchases_changed();
CREATE TRIGGER purchases_updated AFTER UPDATE ON purchases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION purchases_changed();
