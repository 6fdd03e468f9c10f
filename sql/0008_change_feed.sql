-- The change feed: which groups changed at which revision, and which stickers were deleted, so a client that synced at
-- revision R fetches only the groups changed since (`GET /v1/manifest/changes`). Kept for at least 30 days; `stickerd
-- gc` prunes older rows and raises the horizon, below which a cursor answers 410 cursor_expired.
CREATE TABLE catalog_changes (
    revision bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('group', 'sticker', 'filter')),
    id text NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (revision, kind, id)
);
CREATE INDEX catalog_changes_changed_at ON catalog_changes (changed_at);

-- Changes at or below this revision are no longer kept. There is no history from before this migration.
CREATE TABLE catalog_change_horizon (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    revision bigint NOT NULL
);
INSERT INTO catalog_change_horizon (revision) SELECT revision FROM catalog_revision;

-- Logs at the revision this transaction has raised so far. The triggers below are named `*_zlog_*` because triggers
-- of one event fire in name order: after the `*_inserted/updated/deleted` ones that raise the revision, so a change
-- is never logged at a revision already committed (a client holding that cursor would miss it). A statement that
-- raised nothing changed nothing visible, and may log at the committed revision harmlessly.
CREATE FUNCTION log_catalog_changes(change_kind text, ids text[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO catalog_changes (revision, kind, id)
    SELECT (SELECT revision FROM catalog_revision), change_kind, id FROM unnest(ids) AS id WHERE id IS NOT NULL
    ON CONFLICT DO NOTHING
$$;

CREATE FUNCTION sticker_groups_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM old_rows));
    ELSE
        -- content_version alone moves with the group's stickers, which log the group themselves.
        PERFORM log_catalog_changes('group', ARRAY(SELECT n.id FROM old_rows o JOIN new_rows n USING (id)
            WHERE (o.name, o.localized_names, o.size_class, o.flags, o.product_id, o.position, o.published, o.cover_sticker_id)
                  IS DISTINCT FROM
                  (n.name, n.localized_names, n.size_class, n.flags, n.product_id, n.position, n.published, n.cover_sticker_id)));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER sticker_groups_zlog_inserted AFTER INSERT ON sticker_groups REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sticker_groups_log();
CREATE TRIGGER sticker_groups_zlog_updated AFTER UPDATE ON sticker_groups REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sticker_groups_log();
CREATE TRIGGER sticker_groups_zlog_deleted AFTER DELETE ON sticker_groups REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sticker_groups_log();

CREATE FUNCTION stickers_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT DISTINCT group_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT DISTINCT group_id FROM old_rows));
        PERFORM log_catalog_changes('sticker', ARRAY(SELECT id::text FROM old_rows));
    ELSE
        PERFORM log_catalog_changes('group', ARRAY(SELECT group_id FROM old_rows UNION SELECT group_id FROM new_rows));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER stickers_zlog_inserted AFTER INSERT ON stickers REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_log();
CREATE TRIGGER stickers_zlog_updated AFTER UPDATE ON stickers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_log();
CREATE TRIGGER stickers_zlog_deleted AFTER DELETE ON stickers REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_log();

CREATE FUNCTION renditions_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT DISTINCT s.group_id FROM stickers s JOIN new_rows n ON n.source_sha256 = s.asset_sha256));
    ELSE
        PERFORM log_catalog_changes('group', ARRAY(SELECT DISTINCT s.group_id FROM stickers s JOIN old_rows o ON o.source_sha256 = s.asset_sha256));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER renditions_zlog_inserted AFTER INSERT ON renditions REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_log();
CREATE TRIGGER renditions_zlog_updated AFTER UPDATE ON renditions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_log();
CREATE TRIGGER renditions_zlog_deleted AFTER DELETE ON renditions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_log();

CREATE FUNCTION filters_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('filter', ARRAY(SELECT name FROM old_rows));
    ELSE
        PERFORM log_catalog_changes('filter', ARRAY(SELECT name FROM new_rows));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER filters_zlog_inserted AFTER INSERT ON filters REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION filters_log();
CREATE TRIGGER filters_zlog_updated AFTER UPDATE ON filters REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION filters_log();
CREATE TRIGGER filters_zlog_deleted AFTER DELETE ON filters REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION filters_log();
