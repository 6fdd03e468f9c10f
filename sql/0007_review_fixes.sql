-- Every kind of refused delivery is bounded, each (source, status) on its own: a delivery signed by Apple for another
-- app, or a user re-posting someone else's transaction, is signed yet anyone can send one, so `rejected` and
-- `conflict` rows need a bound too; and keeping each (source, status) apart means a flood of one kind cannot evict a
-- genuine delivery refused during a misconfiguration of another.
DROP INDEX webhook_events_unauthenticated;
CREATE INDEX webhook_events_quarantine ON webhook_events (source, status, id) WHERE quarantined;

-- An admin's revocation holds until an admin grants the product again: events that would give it back (the user
-- toggling auto-renew makes Apple sign a fresh transaction) are applied to the transaction's record but do not
-- entitle, and the audit says they were overruled.
CREATE TABLE entitlement_holds (
    user_id text NOT NULL,
    product_id text NOT NULL,
    revoked_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, product_id)
);
CREATE FUNCTION entitlement_holds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('entitlements', COALESCE(NEW.user_id, OLD.user_id));
    RETURN NULL;
END
$$;
CREATE TRIGGER entitlement_holds_changed AFTER INSERT OR DELETE ON entitlement_holds
    FOR EACH ROW EXECUTE FUNCTION entitlement_holds_changed();
