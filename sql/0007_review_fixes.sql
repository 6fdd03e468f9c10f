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

-- Each group's stickers have a version that changes whenever anything a manifest shows of them does (a sticker
-- added, changed, moved or removed; an image's renditions made or replaced), so a replica reads again only the
-- groups whose stickers changed: after a one-sticker change, 50 rows instead of a 10,000-sticker catalog.
ALTER TABLE sticker_groups ADD COLUMN content_version bigint NOT NULL DEFAULT 0;
CREATE SEQUENCE group_content_versions;
CREATE FUNCTION touch_group_contents(ids text[]) RETURNS void LANGUAGE sql AS $$
    UPDATE sticker_groups SET content_version = nextval('group_content_versions') WHERE id = ANY(ids)
$$;
CREATE FUNCTION stickers_touch_groups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM touch_group_contents(ARRAY(SELECT DISTINCT group_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM touch_group_contents(ARRAY(SELECT DISTINCT group_id FROM old_rows));
    ELSE
        PERFORM touch_group_contents(ARRAY(SELECT group_id FROM old_rows UNION SELECT group_id FROM new_rows));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER stickers_touch_inserted AFTER INSERT ON stickers REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_touch_groups();
CREATE TRIGGER stickers_touch_updated AFTER UPDATE ON stickers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_touch_groups();
CREATE TRIGGER stickers_touch_deleted AFTER DELETE ON stickers REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_touch_groups();
CREATE FUNCTION renditions_touch_groups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM touch_group_contents(ARRAY(SELECT DISTINCT s.group_id FROM stickers s JOIN new_rows n ON n.source_sha256 = s.asset_sha256));
    ELSE
        PERFORM touch_group_contents(ARRAY(SELECT DISTINCT s.group_id FROM stickers s JOIN old_rows o ON o.source_sha256 = s.asset_sha256));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER renditions_touch_inserted AFTER INSERT ON renditions REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_touch_groups();
CREATE TRIGGER renditions_touch_updated AFTER UPDATE ON renditions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_touch_groups();
CREATE TRIGGER renditions_touch_deleted AFTER DELETE ON renditions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_touch_groups();

-- Garbage collection against uploads and rebuilds. A sticker going away now locks its images before it looks for
-- their renditions, so a rebuild storing renditions of one of them either commits first (and is seen here) or waits
-- and sees the sticker gone (and marks its renditions itself). Each statement of this function reads anew.
CREATE OR REPLACE FUNCTION stickers_release_assets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM assets WHERE sha256 IN (SELECT asset_sha256 FROM old_rows) ORDER BY sha256 FOR UPDATE;
    UPDATE assets a SET unreferenced_since = now()
    WHERE a.unreferenced_since IS NULL
      AND a.sha256 IN (SELECT o.asset_sha256 FROM old_rows o
                       UNION SELECT r.asset_sha256 FROM renditions r JOIN old_rows o ON o.asset_sha256 = r.source_sha256)
      AND NOT EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
      AND NOT EXISTS (SELECT 1 FROM renditions r JOIN stickers s ON s.asset_sha256 = r.source_sha256 WHERE r.asset_sha256 = a.sha256);
    RETURN NULL;
END
$$;
-- Migration 0004 left images that were already unused with no date, so gc never collected them.
UPDATE assets a SET unreferenced_since = now()
WHERE a.unreferenced_since IS NULL
  AND NOT EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
  AND NOT EXISTS (SELECT 1 FROM renditions r JOIN stickers s ON s.asset_sha256 = r.source_sha256 WHERE r.asset_sha256 = a.sha256);

-- Admin writes sent with an Idempotency-Key (as Stripe's API takes them): the first answer, kept for a day, is the
-- answer to every retry with the same key and the same request, so a retry after a lost acknowledgement does not
-- upload the sticker twice. A row without a status is a request still under way.
CREATE TABLE idempotency_keys (
    admin text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    status integer,
    content_type text,
    location text,
    body bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (admin, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
