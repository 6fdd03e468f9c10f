-- Nothing about a draft reaches a client. The change log used to record every group and sticker row, published or
-- not, so a draft's id came out as `removedGroups`, its deleted stickers as `removedStickers`; and renditions made for
-- an upload into a draft raised the catalog revision (every replica dropped its caches and woke every event stream).
-- From here on, only rows of published groups are logged and only they raise the revision. Publishing a draft is one
-- visible change (its group row), unpublishing a removal.

-- The ids among `ids` of groups published now.
CREATE FUNCTION published_group_ids(ids text[]) RETURNS text[] LANGUAGE sql STABLE AS $$
    SELECT ARRAY(SELECT id FROM sticker_groups WHERE published AND id = ANY (ids))
$$;

-- Renditions change what manifests name only for stickers of a published group.
CREATE OR REPLACE FUNCTION renditions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows o JOIN stickers s ON s.asset_sha256 = o.source_sha256
            JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSIF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows n JOIN stickers s ON s.asset_sha256 = n.source_sha256
            JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (source_sha256, edge, still)
            JOIN stickers s ON s.asset_sha256 = n.source_sha256 JOIN sticker_groups g ON g.id = s.group_id
        WHERE g.published AND o.asset_sha256 IS DISTINCT FROM n.asset_sha256 LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

-- A sticker edit is visible when the group it leaves or the group it joins is published (0003 looked at the second
-- only, so a sticker moved out of a published group into a draft raised nothing).
CREATE OR REPLACE FUNCTION stickers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (id)
        WHERE EXISTS (SELECT 1 FROM sticker_groups g WHERE g.published AND g.id IN (o.group_id, n.group_id))
          AND (o.group_id, o.name, o.description, o.localized_descriptions, o.flags, o.keywords, o.emoji, o.position, o.asset_sha256)
              IS DISTINCT FROM
              (n.group_id, n.name, n.description, n.localized_descriptions, n.flags, n.keywords, n.emoji, n.position, n.asset_sha256)
        LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

-- A group is logged when it is published before or after the statement: a publication, a change, an unpublication.
CREATE OR REPLACE FUNCTION sticker_groups_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM new_rows WHERE published));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM old_rows WHERE published));
    ELSE
        -- content_version alone moves with the group's stickers, which log the group themselves.
        PERFORM log_catalog_changes('group', ARRAY(SELECT n.id FROM old_rows o JOIN new_rows n USING (id)
            WHERE (o.published OR n.published)
              AND (o.name, o.localized_names, o.size_class, o.flags, o.product_id, o.position, o.published, o.cover_sticker_id)
                  IS DISTINCT FROM
                  (n.name, n.localized_names, n.size_class, n.flags, n.product_id, n.position, n.published, n.cover_sticker_id)));
    END IF;
    RETURN NULL;
END
$$;

-- Stickers log their group only while it is published; a deleted sticker is logged by id only from a published group
-- (a group deleted whole is listed as removed, which covers its stickers).
CREATE OR REPLACE FUNCTION stickers_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(SELECT DISTINCT group_id FROM new_rows)));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(SELECT DISTINCT group_id FROM old_rows)));
        PERFORM log_catalog_changes('sticker', ARRAY(SELECT o.id::text FROM old_rows o JOIN sticker_groups g ON g.id = o.group_id
                                                     WHERE g.published));
    ELSE
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(SELECT group_id FROM old_rows UNION SELECT group_id FROM new_rows)));
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION renditions_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(
            SELECT DISTINCT s.group_id FROM stickers s JOIN new_rows n ON n.source_sha256 = s.asset_sha256)));
    ELSE
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(
            SELECT DISTINCT s.group_id FROM stickers s JOIN old_rows o ON o.source_sha256 = s.asset_sha256)));
    END IF;
    RETURN NULL;
END
$$;

-- What was logged before this migration may name drafts, and cannot tell them apart from groups unpublished since: it
-- is forgotten, and a cursor from before answers 410 cursor_expired (its client fetches the manifest once more).
DELETE FROM catalog_changes;
UPDATE catalog_change_horizon SET revision = (SELECT revision FROM catalog_revision);
