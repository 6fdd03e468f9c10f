-- WebP: every stored image knows its format (an upload may be PNG/APNG or WebP), and every sticker has its renditions
-- in both formats, so a rendition is now named by its source, edge, stillness and format.

ALTER TABLE assets ADD COLUMN format text NOT NULL DEFAULT 'png' CHECK (format IN ('png', 'webp'));

ALTER TABLE renditions ADD COLUMN format text NOT NULL DEFAULT 'png' CHECK (format IN ('png', 'webp'));
ALTER TABLE renditions DROP CONSTRAINT renditions_pkey;
ALTER TABLE renditions ADD PRIMARY KEY (source_sha256, edge, still, format);

-- As in 0009, with the format in the key that pairs old and new rows.
CREATE OR REPLACE FUNCTION renditions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows o JOIN stickers s ON s.asset_sha256 = o.source_sha256
            JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSIF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows n JOIN stickers s ON s.asset_sha256 = n.source_sha256
            JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (source_sha256, edge, still, format)
            JOIN stickers s ON s.asset_sha256 = n.source_sha256 JOIN sticker_groups g ON g.id = s.group_id
        WHERE g.published AND o.asset_sha256 IS DISTINCT FROM n.asset_sha256 LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;
