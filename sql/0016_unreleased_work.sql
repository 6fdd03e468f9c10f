-- Work that raises no revision (a group scheduled for later, a visible group's unpublishAt set, a draft edited) was
-- recorded at the current revision: as part of the release already published, so restoring that release re-applied it
-- (once its boundary had passed, the restore showed a scheduled group and hid an unpublished one that the release's
-- own manifest showed neither way). Such work is now recorded at the next revision, which the next visible change,
-- a boundary or a restore raises: it belongs to no release until then, and a release's rows are what it showed.

-- The revision a transaction's row versions belong to: the one it raised, or the next one if it raised none.
CREATE FUNCTION recorded_revision() RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT revision + CASE WHEN current_setting('stickercatalog.revision_raised', true) = 'on' THEN 0 ELSE 1 END
    FROM catalog_revision
$$;

CREATE OR REPLACE FUNCTION record_sticker_group_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r bigint := recorded_revision();
    key text := CASE WHEN TG_OP = 'INSERT' THEN NEW.id ELSE OLD.id END;
BEGIN
    -- content_version and updated_at alone are no new version.
    IF TG_OP = 'UPDATE' AND OLD.id = NEW.id
       AND (OLD.name, OLD.localized_names, OLD.size_class, OLD.flags, OLD.product_id, OLD.position, OLD.listed,
            OLD.published, OLD.cover_sticker_id, OLD.publish_at, OLD.unpublish_at)
           IS NOT DISTINCT FROM
           (NEW.name, NEW.localized_names, NEW.size_class, NEW.flags, NEW.product_id, NEW.position, NEW.listed,
            NEW.published, NEW.cover_sticker_id, NEW.publish_at, NEW.unpublish_at) THEN
        RETURN NULL;
    END IF;
    DELETE FROM sticker_groups_history WHERE id = key AND valid_to IS NULL AND valid_from = r;
    UPDATE sticker_groups_history SET valid_to = r WHERE id = key AND valid_to IS NULL;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO sticker_groups_history VALUES (NEW.id, NEW.name, NEW.localized_names, NEW.size_class, NEW.flags,
            NEW.product_id, NEW.position, NEW.listed, NEW.published, NEW.cover_sticker_id, NEW.publish_at, NEW.unpublish_at,
            NEW.created_at, NEW.updated_at, r, NULL);
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION record_sticker_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r bigint := recorded_revision();
    key uuid := CASE WHEN TG_OP = 'INSERT' THEN NEW.id ELSE OLD.id END;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.id = NEW.id
       AND (OLD.group_id, OLD.name, OLD.description, OLD.localized_descriptions, OLD.flags, OLD.keywords, OLD.emoji,
            OLD.position, OLD.asset_sha256, OLD.publish_at, OLD.unpublish_at, OLD.visible)
           IS NOT DISTINCT FROM
           (NEW.group_id, NEW.name, NEW.description, NEW.localized_descriptions, NEW.flags, NEW.keywords, NEW.emoji,
            NEW.position, NEW.asset_sha256, NEW.publish_at, NEW.unpublish_at, NEW.visible) THEN
        RETURN NULL;
    END IF;
    DELETE FROM stickers_history WHERE id = key AND valid_to IS NULL AND valid_from = r;
    UPDATE stickers_history SET valid_to = r WHERE id = key AND valid_to IS NULL;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO stickers_history VALUES (NEW.id, NEW.group_id, NEW.name, NEW.description, NEW.localized_descriptions,
            NEW.flags, NEW.keywords, NEW.emoji, NEW.position, NEW.asset_sha256, NEW.publish_at, NEW.unpublish_at,
            NEW.visible, NEW.created_at, NEW.updated_at, r, NULL);
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION record_filter_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r bigint := recorded_revision();
    key text := CASE WHEN TG_OP = 'INSERT' THEN NEW.name ELSE OLD.name END;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.name = NEW.name
       AND (OLD.title, OLD.required_flags) IS NOT DISTINCT FROM (NEW.title, NEW.required_flags) THEN
        RETURN NULL;
    END IF;
    DELETE FROM filters_history WHERE name = key AND valid_to IS NULL AND valid_from = r;
    UPDATE filters_history SET valid_to = r WHERE name = key AND valid_to IS NULL;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO filters_history VALUES (NEW.name, NEW.title, NEW.required_flags, NEW.created_at, NEW.updated_at, r, NULL);
    END IF;
    RETURN NULL;
END
$$;
