-- Releases: every raised revision is kept as a release (when, by whom), and the catalog as it was at any kept release
-- can be read and restored. History is kept per row, not per release: each version of a group, sticker or filter row
-- holds the revisions it was current for, [valid_from, valid_to), so a release costs only the rows it changed.
-- "The catalog at revision R" is the last state committed while the revision was R (a draft edit raises nothing and
-- replaces the version it made at the same revision).

CREATE TABLE catalog_releases (
    revision bigint PRIMARY KEY,
    released_at timestamptz NOT NULL DEFAULT now(),
    -- The admin token's name, 'schedule' for a boundary, or what else wrote (`stickercatalog.author`).
    author text NOT NULL,
    -- For a restore: the release it brought back.
    restored_from bigint
);
CREATE INDEX catalog_releases_released_at ON catalog_releases (released_at);

-- As in 0013, and every raised revision becomes a release, named after the writer the transaction says it is.
CREATE OR REPLACE FUNCTION raise_catalog_revision() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    next bigint;
BEGIN
    IF current_setting('stickercatalog.revision_raised', true) = 'on' THEN
        RETURN;
    END IF;
    UPDATE catalog_revision SET revision = revision + 1 RETURNING revision INTO next;
    INSERT INTO catalog_releases (revision, author, restored_from)
    VALUES (next, COALESCE(NULLIF(current_setting('stickercatalog.author', true), ''), 'database'),
            NULLIF(current_setting('stickercatalog.restored_from', true), '')::bigint);
    PERFORM pg_notify('catalog_revision', next::text);
    PERFORM set_config('stickercatalog.revision_raised', 'on', true);
END
$$;

CREATE TABLE sticker_groups_history (
    id text NOT NULL,
    name text NOT NULL,
    localized_names jsonb NOT NULL,
    size_class text NOT NULL,
    flags text[] NOT NULL,
    product_id text,
    position integer NOT NULL,
    listed boolean NOT NULL,
    published boolean NOT NULL,
    cover_sticker_id uuid,
    publish_at timestamptz,
    unpublish_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    valid_from bigint NOT NULL,
    valid_to bigint
);
CREATE TABLE stickers_history (
    id uuid NOT NULL,
    group_id text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    localized_descriptions jsonb NOT NULL,
    flags text[] NOT NULL,
    keywords text[] NOT NULL,
    emoji text[] NOT NULL,
    position integer NOT NULL,
    asset_sha256 text NOT NULL,
    publish_at timestamptz,
    unpublish_at timestamptz,
    visible boolean NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    valid_from bigint NOT NULL,
    valid_to bigint
);
CREATE TABLE filters_history (
    name text NOT NULL,
    title text NOT NULL,
    required_flags text[] NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    valid_from bigint NOT NULL,
    valid_to bigint
);
-- Few indexes, as history is most of what releases cost: a row's current version (the triggers), the versions a
-- release began or ended (its summary, pruning), and a group's stickers (a summary compares only groups it touched).
-- gc's question, which images history shows, is one anti-join per batch and needs none.
CREATE UNIQUE INDEX sticker_groups_history_current ON sticker_groups_history (id) WHERE valid_to IS NULL;
CREATE UNIQUE INDEX stickers_history_current ON stickers_history (id) WHERE valid_to IS NULL;
CREATE UNIQUE INDEX filters_history_current ON filters_history (name) WHERE valid_to IS NULL;
CREATE INDEX stickers_history_valid_from ON stickers_history (valid_from);
CREATE INDEX stickers_history_valid_to ON stickers_history (valid_to);
CREATE INDEX stickers_history_group ON stickers_history (group_id);

-- A restore writes groups before the stickers their covers name.
ALTER TABLE sticker_groups ALTER CONSTRAINT sticker_groups_cover_fk DEFERRABLE INITIALLY IMMEDIATE;

-- The rows as they were at revision `r`.
CREATE FUNCTION sticker_groups_at(r bigint) RETURNS SETOF sticker_groups_history LANGUAGE sql STABLE AS $$
    SELECT * FROM sticker_groups_history WHERE valid_from <= r AND (valid_to IS NULL OR valid_to > r)
$$;
CREATE FUNCTION stickers_at(r bigint) RETURNS SETOF stickers_history LANGUAGE sql STABLE AS $$
    SELECT * FROM stickers_history WHERE valid_from <= r AND (valid_to IS NULL OR valid_to > r)
$$;
CREATE FUNCTION filters_at(r bigint) RETURNS SETOF filters_history LANGUAGE sql STABLE AS $$
    SELECT * FROM filters_history WHERE valid_from <= r AND (valid_to IS NULL OR valid_to > r)
$$;

-- History starts here: what is there now is the first kept release.
INSERT INTO catalog_releases (revision, author) SELECT revision, 'history start' FROM catalog_revision;
INSERT INTO sticker_groups_history
    SELECT id, name, localized_names, size_class, flags, product_id, position, listed, published, cover_sticker_id,
           publish_at, unpublish_at, created_at, updated_at, (SELECT revision FROM catalog_revision), NULL
    FROM sticker_groups;
INSERT INTO stickers_history
    SELECT id, group_id, name, description, localized_descriptions, flags, keywords, emoji, position, asset_sha256,
           publish_at, unpublish_at, visible, created_at, updated_at, (SELECT revision FROM catalog_revision), NULL
    FROM stickers;
INSERT INTO filters_history
    SELECT name, title, required_flags, created_at, updated_at, (SELECT revision FROM catalog_revision), NULL FROM filters;

-- Each changed row gets its version when the transaction commits (deferred constraint triggers), so it is recorded at
-- the revision the transaction ends at, whichever of its statements raised it: a cascade deleting a group's stickers
-- before the group's own trigger raises the revision, a move that shifts rows before the statement that changes the
-- visible order, an upsert whose updates fire before its inserts. A row changed twice in one revision keeps its last
-- version (the one begun at `r` is replaced); a transaction that raises nothing records at the current revision.
CREATE FUNCTION record_sticker_group_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r bigint := (SELECT revision FROM catalog_revision);
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

CREATE FUNCTION record_sticker_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r bigint := (SELECT revision FROM catalog_revision);
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

CREATE FUNCTION record_filter_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r bigint := (SELECT revision FROM catalog_revision);
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

CREATE CONSTRAINT TRIGGER sticker_groups_history AFTER INSERT OR UPDATE OR DELETE ON sticker_groups
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION record_sticker_group_version();
CREATE CONSTRAINT TRIGGER stickers_history AFTER INSERT OR UPDATE OR DELETE ON stickers
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION record_sticker_version();
CREATE CONSTRAINT TRIGGER filters_history AFTER INSERT OR UPDATE OR DELETE ON filters
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION record_filter_version();

-- A boundary's release is the schedule's.
CREATE OR REPLACE FUNCTION apply_schedule(moment timestamptz, max_ahead interval DEFAULT NULL) RETURNS timestamptz LANGUAGE plpgsql AS $$
DECLARE
    applied timestamptz;
    due timestamptz;
BEGIN
    IF max_ahead IS NOT NULL THEN
        moment := least(moment, clock_timestamp() + max_ahead);
    END IF;
    SELECT applied_at INTO applied FROM catalog_schedule;
    due := next_schedule_boundary(applied);
    IF due IS NULL OR due > moment THEN
        RETURN due;
    END IF;
    PERFORM pg_advisory_xact_lock(1396918354);  -- 'SCHR'
    PERFORM set_config('stickercatalog.applying_schedule', 'on', true);
    PERFORM set_config('stickercatalog.author', 'schedule', true);
    UPDATE catalog_schedule SET applied_at = greatest(applied_at, moment) RETURNING applied_at INTO applied;
    UPDATE sticker_groups SET published = listed AND in_schedule(publish_at, unpublish_at, applied)
    WHERE (publish_at IS NOT NULL OR unpublish_at IS NOT NULL)
      AND published IS DISTINCT FROM (listed AND in_schedule(publish_at, unpublish_at, applied));
    UPDATE stickers SET visible = in_schedule(publish_at, unpublish_at, applied)
    WHERE (publish_at IS NOT NULL OR unpublish_at IS NOT NULL)
      AND visible IS DISTINCT FROM in_schedule(publish_at, unpublish_at, applied);
    RETURN next_schedule_boundary(applied);
END
$$;

-- Makes groups, stickers (their order, covers, flags, translations, schedules, product ids) and filters what they
-- were at release `target`, touching only rows that differ (picked first: a conflicting insert that updates nothing still
-- locks its row, 10,000 of them for a one-row restore): the triggers raise one revision (a release that names
-- `target`) and log exactly the difference for the change feed. What is visible follows from the restored schedules
-- at the moment of the restore. Purchases and entitlements live elsewhere and are left alone. Returns whether
-- anything changed, or null when `target` is no kept release.
CREATE FUNCTION restore_release(target bigint) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    changed bigint := 0;
    n bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM catalog_releases WHERE revision = target) THEN
        RETURN NULL;
    END IF;
    PERFORM set_config('stickercatalog.restored_from', target::text, true);
    -- A cover may name a sticker restored further down.
    SET CONSTRAINTS sticker_groups_cover_fk DEFERRED;
    DELETE FROM stickers s WHERE NOT EXISTS (SELECT 1 FROM stickers_at(target) h WHERE h.id = s.id);
    GET DIAGNOSTICS n = ROW_COUNT;
    changed := changed + n;
    DELETE FROM sticker_groups g WHERE NOT EXISTS (SELECT 1 FROM sticker_groups_at(target) h WHERE h.id = g.id);
    GET DIAGNOSTICS n = ROW_COUNT;
    changed := changed + n;
    DELETE FROM filters f WHERE NOT EXISTS (SELECT 1 FROM filters_at(target) h WHERE h.name = f.name);
    GET DIAGNOSTICS n = ROW_COUNT;
    changed := changed + n;
    INSERT INTO sticker_groups AS g (id, name, localized_names, size_class, flags, product_id, position, listed,
                                     cover_sticker_id, publish_at, unpublish_at, created_at, updated_at)
        SELECT h.id, h.name, h.localized_names, h.size_class, h.flags, h.product_id, h.position, h.listed,
               h.cover_sticker_id, h.publish_at, h.unpublish_at, h.created_at, h.updated_at
        FROM sticker_groups_at(target) h LEFT JOIN sticker_groups g USING (id)
        WHERE g.id IS NULL
           OR (g.name, g.localized_names, g.size_class, g.flags, g.product_id, g.position, g.listed, g.cover_sticker_id,
               g.publish_at, g.unpublish_at)
              IS DISTINCT FROM
              (h.name, h.localized_names, h.size_class, h.flags, h.product_id, h.position, h.listed, h.cover_sticker_id,
               h.publish_at, h.unpublish_at)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, localized_names = excluded.localized_names,
        size_class = excluded.size_class, flags = excluded.flags, product_id = excluded.product_id,
        position = excluded.position, listed = excluded.listed, cover_sticker_id = excluded.cover_sticker_id,
        publish_at = excluded.publish_at, unpublish_at = excluded.unpublish_at, updated_at = excluded.updated_at
    WHERE (g.name, g.localized_names, g.size_class, g.flags, g.product_id, g.position, g.listed, g.cover_sticker_id,
           g.publish_at, g.unpublish_at)
          IS DISTINCT FROM
          (excluded.name, excluded.localized_names, excluded.size_class, excluded.flags, excluded.product_id,
           excluded.position, excluded.listed, excluded.cover_sticker_id, excluded.publish_at, excluded.unpublish_at);
    GET DIAGNOSTICS n = ROW_COUNT;
    changed := changed + n;
    INSERT INTO stickers AS s (id, group_id, name, description, localized_descriptions, flags, keywords, emoji, position,
                               asset_sha256, publish_at, unpublish_at, created_at, updated_at)
        SELECT h.id, h.group_id, h.name, h.description, h.localized_descriptions, h.flags, h.keywords, h.emoji, h.position,
               h.asset_sha256, h.publish_at, h.unpublish_at, h.created_at, h.updated_at
        FROM stickers_at(target) h LEFT JOIN stickers s USING (id)
        WHERE s.id IS NULL
           OR (s.group_id, s.name, s.description, s.localized_descriptions, s.flags, s.keywords, s.emoji, s.position,
               s.asset_sha256, s.publish_at, s.unpublish_at)
              IS DISTINCT FROM
              (h.group_id, h.name, h.description, h.localized_descriptions, h.flags, h.keywords, h.emoji, h.position,
               h.asset_sha256, h.publish_at, h.unpublish_at)
    ON CONFLICT (id) DO UPDATE SET group_id = excluded.group_id, name = excluded.name, description = excluded.description,
        localized_descriptions = excluded.localized_descriptions, flags = excluded.flags, keywords = excluded.keywords,
        emoji = excluded.emoji, position = excluded.position, asset_sha256 = excluded.asset_sha256,
        publish_at = excluded.publish_at, unpublish_at = excluded.unpublish_at, updated_at = excluded.updated_at
    WHERE (s.group_id, s.name, s.description, s.localized_descriptions, s.flags, s.keywords, s.emoji, s.position,
           s.asset_sha256, s.publish_at, s.unpublish_at)
          IS DISTINCT FROM
          (excluded.group_id, excluded.name, excluded.description, excluded.localized_descriptions, excluded.flags,
           excluded.keywords, excluded.emoji, excluded.position, excluded.asset_sha256, excluded.publish_at,
           excluded.unpublish_at);
    GET DIAGNOSTICS n = ROW_COUNT;
    changed := changed + n;
    INSERT INTO filters AS f (name, title, required_flags, created_at, updated_at)
        SELECT name, title, required_flags, created_at, updated_at FROM filters_at(target)
    ON CONFLICT (name) DO UPDATE SET title = excluded.title, required_flags = excluded.required_flags,
        updated_at = excluded.updated_at
    WHERE (f.title, f.required_flags) IS DISTINCT FROM (excluded.title, excluded.required_flags);
    GET DIAGNOSTICS n = ROW_COUNT;
    changed := changed + n;
    -- Images shown again are in use again (gc also spares every image history shows).
    UPDATE assets a SET unreferenced_since = NULL
    WHERE a.unreferenced_since IS NOT NULL
      AND a.sha256 IN (SELECT asset_sha256 FROM stickers
                       UNION SELECT r.asset_sha256 FROM renditions r JOIN stickers s ON s.asset_sha256 = r.source_sha256);
    RETURN changed > 0;
END
$$;

-- What release `r` changed that clients see, against the release before: groups added, changed (names, size,
-- flags, product, cover), removed and reordered; stickers added, changed, removed, and the groups whose sticker order
-- changed; filters added, changed, removed. Only groups with a row changed at `r` are compared sticker by sticker.
-- PL/pgSQL with a custom plan per call: as a SQL function its plan was made once for any `r`, scanning all history
-- (40 ms a release instead of 5).
-- Null for the oldest kept release: what came before it is forgotten (or was never kept).
CREATE FUNCTION release_summary(r bigint) RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM catalog_releases WHERE revision = r - 1) THEN
        RETURN NULL;
    END IF;
    RETURN (WITH touched AS (
            SELECT id FROM sticker_groups_history WHERE valid_from = r OR valid_to = r
            UNION SELECT group_id FROM stickers_history WHERE valid_from = r OR valid_to = r),
        gb AS (SELECT * FROM sticker_groups_at(r - 1) WHERE published),
        ga AS (SELECT * FROM sticker_groups_at(r) WHERE published),
        -- A group appearing or leaving changed its own row (published), so it is among those touched.
        sb AS (SELECT s.* FROM stickers_at(r - 1) s JOIN gb ON gb.id = s.group_id
               WHERE s.visible AND s.group_id = ANY (ARRAY(SELECT id FROM touched))),
        sa AS (SELECT s.* FROM stickers_at(r) s JOIN ga ON ga.id = s.group_id
               WHERE s.visible AND s.group_id = ANY (ARRAY(SELECT id FROM touched))),
        both_groups AS (SELECT gb.id, gb.position AS before, ga.position AS after,
                               (gb.name, gb.localized_names, gb.size_class, gb.flags, gb.product_id, gb.cover_sticker_id)
                               IS DISTINCT FROM
                               (ga.name, ga.localized_names, ga.size_class, ga.flags, ga.product_id, ga.cover_sticker_id) AS changed
                        FROM gb JOIN ga USING (id)),
        both_stickers AS (SELECT sb.id, sb.group_id, sb.position AS before, sa.position AS after, sb.group_id = sa.group_id AS stayed,
                                 (sb.group_id, sb.name, sb.description, sb.localized_descriptions, sb.flags, sb.keywords, sb.emoji,
                                  sb.asset_sha256) IS DISTINCT FROM
                                 (sa.group_id, sa.name, sa.description, sa.localized_descriptions, sa.flags, sa.keywords, sa.emoji,
                                  sa.asset_sha256) AS changed
                          FROM sb JOIN sa USING (id)),
        fb AS (SELECT * FROM filters_at(r - 1)),
        fa AS (SELECT * FROM filters_at(r))
        SELECT jsonb_build_object(
            'groups', jsonb_build_object(
                'added', ARRAY(SELECT id FROM ga WHERE id NOT IN (SELECT id FROM gb) ORDER BY position, name, id),
                'changed', ARRAY(SELECT id FROM both_groups WHERE changed ORDER BY after),
                'removed', ARRAY(SELECT id FROM gb WHERE id NOT IN (SELECT id FROM ga) ORDER BY position, name, id),
                'reordered', ARRAY(SELECT id FROM both_groups ORDER BY before, id) <> ARRAY(SELECT id FROM both_groups ORDER BY after, id)),
            'stickers', jsonb_build_object(
                'added', (SELECT count(*) FROM sa WHERE id NOT IN (SELECT id FROM sb)),
                'changed', (SELECT count(*) FROM both_stickers WHERE changed),
                'removed', (SELECT count(*) FROM sb WHERE id NOT IN (SELECT id FROM sa)),
                'reorderedIn', ARRAY(SELECT group_id FROM both_stickers WHERE stayed GROUP BY group_id
                                     HAVING array_agg(id ORDER BY before, id) <> array_agg(id ORDER BY after, id) ORDER BY group_id)),
            'filters', jsonb_build_object(
                'added', ARRAY(SELECT name FROM fa WHERE name NOT IN (SELECT name FROM fb) ORDER BY name),
                'changed', ARRAY(SELECT fa.name FROM fa JOIN fb USING (name)
                                 WHERE (fa.title, fa.required_flags) IS DISTINCT FROM (fb.title, fb.required_flags) ORDER BY name),
                'removed', ARRAY(SELECT name FROM fb WHERE name NOT IN (SELECT name FROM fa) ORDER BY name))));
END
$$;
