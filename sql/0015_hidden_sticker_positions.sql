-- A sticker's stored position counts its group's hidden stickers (drafts' and scheduled ones) too: uploading, moving
-- or deleting a hidden sticker among visible ones shifted theirs, which raised the revision and logged the group
-- though no manifest changed (a client learnt the timing of unpublished work). Manifests list a group's visible
-- stickers in order, without positions: a position is now a visible change only when the order of the group's
-- visible stickers changes, as 0013 did for groups. As in 0013 otherwise.

-- For an UPDATE, a published group's visible stickers are compared in order after the statement and before it (today's
-- rows with the statement's old ones in place of its new ones), with the snapshot's tie-breaks. A trigger's transition
-- tables are visible to its own function only, so the two functions below each hold that query.
CREATE OR REPLACE FUNCTION stickers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published AND s.visible LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published AND s.visible LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (id)
        WHERE ((o.visible AND EXISTS (SELECT 1 FROM sticker_groups g WHERE g.published AND g.id = o.group_id))
            OR (n.visible AND EXISTS (SELECT 1 FROM sticker_groups g WHERE g.published AND g.id = n.group_id)))
          AND (o.group_id, o.name, o.description, o.localized_descriptions, o.flags, o.keywords, o.emoji, o.asset_sha256, o.visible)
              IS DISTINCT FROM
              (n.group_id, n.name, n.description, n.localized_descriptions, n.flags, n.keywords, n.emoji, n.asset_sha256, n.visible)
        LIMIT 1;
        IF NOT FOUND THEN
            PERFORM 1 FROM sticker_groups g
            WHERE g.published AND g.id IN (SELECT o.group_id FROM old_rows o JOIN new_rows n USING (id) WHERE o.position <> n.position)
              AND (SELECT array_agg(s.id ORDER BY s.position, s.created_at, s.id) FROM stickers s WHERE s.group_id = g.id AND s.visible)
                  IS DISTINCT FROM
                  (SELECT array_agg(b.id ORDER BY b.position, b.created_at, b.id) FROM (
                       SELECT s.id, s.position, s.created_at FROM stickers s
                       WHERE s.group_id = g.id AND s.visible AND s.id NOT IN (SELECT id FROM new_rows)
                       UNION ALL
                       SELECT o.id, o.position, o.created_at FROM old_rows o WHERE o.group_id = g.id AND o.visible) b)
            LIMIT 1;
        END IF;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

-- Logs a group for an UPDATE only when something a client sees of its visible stickers changed: their content, or
-- their order.
CREATE OR REPLACE FUNCTION stickers_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(SELECT DISTINCT group_id FROM new_rows WHERE visible)));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(SELECT DISTINCT group_id FROM old_rows WHERE visible)));
        PERFORM log_catalog_changes('sticker', ARRAY(SELECT o.id::text FROM old_rows o JOIN sticker_groups g ON g.id = o.group_id
                                                     WHERE g.published AND o.visible));
    ELSE
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(
            SELECT o.group_id FROM old_rows o JOIN new_rows n USING (id)
            WHERE (o.visible OR n.visible)
              AND (o.group_id, o.name, o.description, o.localized_descriptions, o.flags, o.keywords, o.emoji, o.asset_sha256, o.visible)
                  IS DISTINCT FROM
                  (n.group_id, n.name, n.description, n.localized_descriptions, n.flags, n.keywords, n.emoji, n.asset_sha256, n.visible)
            UNION
            SELECT n.group_id FROM old_rows o JOIN new_rows n USING (id)
            WHERE (o.visible OR n.visible) AND o.group_id <> n.group_id
            UNION
            SELECT g.id FROM sticker_groups g
            WHERE g.id IN (SELECT o.group_id FROM old_rows o JOIN new_rows n USING (id) WHERE o.position <> n.position)
              AND (SELECT array_agg(s.id ORDER BY s.position, s.created_at, s.id) FROM stickers s WHERE s.group_id = g.id AND s.visible)
                  IS DISTINCT FROM
                  (SELECT array_agg(b.id ORDER BY b.position, b.created_at, b.id) FROM (
                       SELECT s.id, s.position, s.created_at FROM stickers s
                       WHERE s.group_id = g.id AND s.visible AND s.id NOT IN (SELECT id FROM new_rows)
                       UNION ALL
                       SELECT o.id, o.position, o.created_at FROM old_rows o WHERE o.group_id = g.id AND o.visible) b))));
    END IF;
    RETURN NULL;
END
$$;
