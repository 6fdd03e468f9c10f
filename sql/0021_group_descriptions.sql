-- A group's description (issue 47): a line under its name in a store's browse list and the group index, with
-- translations by locale as its name has (`localized_descriptions`, falling back to `description`). It is part of what
-- clients see, as a name is: a change raises a revision, logs the group for the change feed, is kept in the release
-- history, counts as a changed group in the release summary and comes back with a restore. The functions below are
-- 0019's with the two columns added to each list and comparison.

ALTER TABLE sticker_groups
    ADD COLUMN description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 300),
    ADD COLUMN localized_descriptions jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(localized_descriptions) = 'object');
ALTER TABLE sticker_groups_history
    ADD COLUMN description text NOT NULL DEFAULT '',
    ADD COLUMN localized_descriptions jsonb NOT NULL DEFAULT '{}';

CREATE OR REPLACE FUNCTION record_sticker_group_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r bigint := recorded_revision();
    key text := CASE WHEN TG_OP = 'INSERT' THEN NEW.id ELSE OLD.id END;
BEGIN
    -- content_version and updated_at alone are no new version.
    IF TG_OP = 'UPDATE' AND OLD.id = NEW.id
       AND (OLD.name, OLD.localized_names, OLD.size_class, OLD.flags, OLD.product_id, OLD.position, OLD.listed,
            OLD.published, OLD.cover_sticker_id, OLD.publish_at, OLD.unpublish_at, OLD.audience, OLD.audience_salt,
            OLD.description, OLD.localized_descriptions)
           IS NOT DISTINCT FROM
           (NEW.name, NEW.localized_names, NEW.size_class, NEW.flags, NEW.product_id, NEW.position, NEW.listed,
            NEW.published, NEW.cover_sticker_id, NEW.publish_at, NEW.unpublish_at, NEW.audience, NEW.audience_salt,
            NEW.description, NEW.localized_descriptions) THEN
        RETURN NULL;
    END IF;
    DELETE FROM sticker_groups_history WHERE id = key AND valid_to IS NULL AND valid_from = r;
    UPDATE sticker_groups_history SET valid_to = r WHERE id = key AND valid_to IS NULL;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO sticker_groups_history (id, name, localized_names, size_class, flags, product_id, position, listed,
                                            published, cover_sticker_id, publish_at, unpublish_at, created_at,
                                            updated_at, valid_from, valid_to, audience, audience_salt, description,
                                            localized_descriptions)
        VALUES (NEW.id, NEW.name, NEW.localized_names, NEW.size_class, NEW.flags, NEW.product_id, NEW.position,
                NEW.listed, NEW.published, NEW.cover_sticker_id, NEW.publish_at, NEW.unpublish_at, NEW.created_at,
                NEW.updated_at, r, NULL, NEW.audience, NEW.audience_salt, NEW.description, NEW.localized_descriptions);
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION sticker_groups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    shifted text[];
    visible boolean;
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows WHERE published LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows WHERE published LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (id)
        WHERE (o.published OR n.published)
          AND (o.name, o.localized_names, o.size_class, o.flags, o.product_id, o.published, o.cover_sticker_id, o.audience,
              o.description, o.localized_descriptions)
              IS DISTINCT FROM
              (n.name, n.localized_names, n.size_class, n.flags, n.product_id, n.published, n.cover_sticker_id, n.audience,
              n.description, n.localized_descriptions)
        LIMIT 1;
    END IF;
    visible := FOUND;
    shifted := visible_order_shift();
    IF visible OR cardinality(shifted) > 0 THEN
        PERFORM raise_catalog_revision();
        PERFORM log_catalog_changes('group', shifted);
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION sticker_groups_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM new_rows WHERE published));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM old_rows WHERE published));
    ELSE
        -- content_version alone moves with the group's stickers, which log the group themselves; a move is logged
        -- by sticker_groups_changed when the visible order changed.
        PERFORM log_catalog_changes('group', ARRAY(SELECT n.id FROM old_rows o JOIN new_rows n USING (id)
            WHERE (o.published OR n.published)
              AND (o.name, o.localized_names, o.size_class, o.flags, o.product_id, o.published, o.cover_sticker_id, o.audience,
              o.description, o.localized_descriptions)
                  IS DISTINCT FROM
                  (n.name, n.localized_names, n.size_class, n.flags, n.product_id, n.published, n.cover_sticker_id, n.audience,
              n.description, n.localized_descriptions)));
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION restore_release(target bigint) RETURNS boolean LANGUAGE plpgsql AS $$
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
                                     cover_sticker_id, publish_at, unpublish_at, created_at, updated_at, audience,
                                     audience_salt, description, localized_descriptions)
        SELECT h.id, h.name, h.localized_names, h.size_class, h.flags, h.product_id, h.position, h.listed,
               h.cover_sticker_id, h.publish_at, h.unpublish_at, h.created_at, h.updated_at, h.audience,
               COALESCE(h.audience_salt, g.audience_salt, gen_random_uuid()::text), h.description, h.localized_descriptions
        FROM sticker_groups_at(target) h LEFT JOIN sticker_groups g USING (id)
        WHERE g.id IS NULL
           OR (g.name, g.localized_names, g.size_class, g.flags, g.product_id, g.position, g.listed, g.cover_sticker_id,
               g.publish_at, g.unpublish_at, g.audience, g.audience_salt, g.description, g.localized_descriptions)
              IS DISTINCT FROM
              (h.name, h.localized_names, h.size_class, h.flags, h.product_id, h.position, h.listed, h.cover_sticker_id,
               h.publish_at, h.unpublish_at, h.audience, COALESCE(h.audience_salt, g.audience_salt), h.description,
               h.localized_descriptions)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, localized_names = excluded.localized_names,
        size_class = excluded.size_class, flags = excluded.flags, product_id = excluded.product_id,
        position = excluded.position, listed = excluded.listed, cover_sticker_id = excluded.cover_sticker_id,
        publish_at = excluded.publish_at, unpublish_at = excluded.unpublish_at, updated_at = excluded.updated_at,
        audience = excluded.audience, audience_salt = excluded.audience_salt, description = excluded.description,
        localized_descriptions = excluded.localized_descriptions
    WHERE (g.name, g.localized_names, g.size_class, g.flags, g.product_id, g.position, g.listed, g.cover_sticker_id,
           g.publish_at, g.unpublish_at, g.audience, g.audience_salt, g.description, g.localized_descriptions)
          IS DISTINCT FROM
          (excluded.name, excluded.localized_names, excluded.size_class, excluded.flags, excluded.product_id,
           excluded.position, excluded.listed, excluded.cover_sticker_id, excluded.publish_at, excluded.unpublish_at,
           excluded.audience, excluded.audience_salt, excluded.description, excluded.localized_descriptions);
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

CREATE OR REPLACE FUNCTION release_summary(r bigint) RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan AS $$
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
                               (gb.name, gb.localized_names, gb.size_class, gb.flags, gb.product_id, gb.cover_sticker_id,
                                gb.audience, gb.description, gb.localized_descriptions)
                               IS DISTINCT FROM
                               (ga.name, ga.localized_names, ga.size_class, ga.flags, ga.product_id, ga.cover_sticker_id,
                                ga.audience, ga.description, ga.localized_descriptions) AS changed,
                               gb.audience IS DISTINCT FROM ga.audience AS audience
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
                'reordered', ARRAY(SELECT id FROM both_groups ORDER BY before, id) <> ARRAY(SELECT id FROM both_groups ORDER BY after, id),
                'audience', ARRAY(SELECT id FROM both_groups WHERE audience ORDER BY after)),
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
