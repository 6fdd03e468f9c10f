-- A sticker's stored position counts its group's hidden stickers (drafts' and scheduled ones) too: uploading, moving
-- or deleting a hidden sticker among visible ones shifted theirs, which raised the revision and logged the group
-- though no manifest changed (a client learnt the timing of unpublished work). Manifests list a group's visible
-- stickers in order, without positions: a position is now a visible change only when the order of the group's
-- visible stickers changes, as 0013 did for groups. As in 0013 otherwise.
--
-- For an UPDATE, the published groups where a row visible before or after moved have their visible stickers compared
-- in order after the statement and before it (today's rows with the statement's old ones in place of its new ones),
-- with the snapshot's tie-breaks, in one grouped pass. A trigger's transition tables are visible to its own function
-- only, so the two functions below each hold that query.

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
            PERFORM 1 FROM (
                WITH moved AS (
                    SELECT DISTINCT o.group_id AS id FROM old_rows o JOIN new_rows n USING (id)
                    JOIN sticker_groups g ON g.id = o.group_id
                    WHERE g.published AND o.position <> n.position AND (o.visible OR n.visible)
                ), after AS (
                    SELECT s.group_id, array_agg(s.id ORDER BY s.position, s.created_at, s.id) AS ids
                    FROM stickers s JOIN moved m ON m.id = s.group_id WHERE s.visible GROUP BY s.group_id
                ), before AS (
                    SELECT b.group_id, array_agg(b.id ORDER BY b.position, b.created_at, b.id) AS ids FROM (
                        SELECT s.group_id, s.id, s.position, s.created_at FROM stickers s JOIN moved m ON m.id = s.group_id
                        WHERE s.visible AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = s.id)
                        UNION ALL
                        SELECT o.group_id, o.id, o.position, o.created_at FROM old_rows o JOIN moved m ON m.id = o.group_id
                        WHERE o.visible) b
                    GROUP BY b.group_id
                )
                SELECT m.id FROM moved m LEFT JOIN after a ON a.group_id = m.id LEFT JOIN before b ON b.group_id = m.id
                WHERE a.ids IS DISTINCT FROM b.ids
            ) reordered LIMIT 1;
        END IF;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

-- Logs a group for an UPDATE only when something a client sees of its visible stickers changed: a visible sticker's
-- content (each side logs its own group, so a move between groups logs both, and a draft's side logs nothing), or
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
            WITH changed AS (
                SELECT o.group_id AS old_group, o.visible AS old_visible, n.group_id AS new_group, n.visible AS new_visible
                FROM old_rows o JOIN new_rows n USING (id)
                WHERE (o.group_id, o.name, o.description, o.localized_descriptions, o.flags, o.keywords, o.emoji, o.asset_sha256, o.visible)
                      IS DISTINCT FROM
                      (n.group_id, n.name, n.description, n.localized_descriptions, n.flags, n.keywords, n.emoji, n.asset_sha256, n.visible)
            ), moved AS (
                SELECT DISTINCT o.group_id AS id FROM old_rows o JOIN new_rows n USING (id)
                JOIN sticker_groups g ON g.id = o.group_id
                WHERE g.published AND o.position <> n.position AND (o.visible OR n.visible)
            ), after AS (
                SELECT s.group_id, array_agg(s.id ORDER BY s.position, s.created_at, s.id) AS ids
                FROM stickers s JOIN moved m ON m.id = s.group_id WHERE s.visible GROUP BY s.group_id
            ), before AS (
                SELECT b.group_id, array_agg(b.id ORDER BY b.position, b.created_at, b.id) AS ids FROM (
                    SELECT s.group_id, s.id, s.position, s.created_at FROM stickers s JOIN moved m ON m.id = s.group_id
                    WHERE s.visible AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = s.id)
                    UNION ALL
                    SELECT o.group_id, o.id, o.position, o.created_at FROM old_rows o JOIN moved m ON m.id = o.group_id
                    WHERE o.visible) b
                GROUP BY b.group_id
            )
            SELECT old_group FROM changed WHERE old_visible
            UNION SELECT new_group FROM changed WHERE new_visible
            UNION SELECT m.id FROM moved m LEFT JOIN after a ON a.group_id = m.id LEFT JOIN before b ON b.group_id = m.id
                  WHERE a.ids IS DISTINCT FROM b.ids)));
    END IF;
    RETURN NULL;
END
$$;
