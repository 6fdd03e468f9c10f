-- A placeholder colour per image (issue 47): `#rrggbbaa`, the still picture's mean colour weighted by alpha, so a
-- client paints a grid before any image arrives. It is a fact of the image's bytes, like its width, so it lives
-- with them: made at upload, and filled in for images stored before this migration by `fill_placeholders`, which
-- stickerd runs in the background (the database cannot decode a PNG).
ALTER TABLE assets ADD COLUMN placeholder text CHECK (placeholder ~ '^#[0-9a-f]{8}$');

-- Fills the placeholders of images that have none (an image that has one keeps it: the colour of given bytes never
-- changes), and makes what clients see of their stickers change as a rendition replaced would: the revision raised
-- when a visible sticker of a published group shows one, those groups' contents touched and logged for the change
-- feed. Returns how many images it filled.
CREATE FUNCTION fill_placeholders(digests text[], colours text[]) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    filled text[];
    groups text[];
BEGIN
    WITH updated AS (
        UPDATE assets a SET placeholder = f.colour
        FROM unnest(digests, colours) AS f(sha256, colour)
        WHERE a.sha256 = f.sha256 AND a.placeholder IS NULL
        RETURNING a.sha256)
    SELECT COALESCE(array_agg(sha256), '{}') INTO filled FROM updated;
    groups := ARRAY(SELECT DISTINCT s.group_id FROM stickers s WHERE s.asset_sha256 = ANY (filled));
    IF cardinality(groups) = 0 THEN
        RETURN cardinality(filled);
    END IF;
    PERFORM touch_group_contents(groups);
    PERFORM 1 FROM stickers s JOIN sticker_groups g ON g.id = s.group_id
        WHERE s.asset_sha256 = ANY (filled) AND s.visible AND g.published LIMIT 1;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(
            SELECT DISTINCT s.group_id FROM stickers s WHERE s.asset_sha256 = ANY (filled) AND s.visible)));
    END IF;
    RETURN cardinality(filled);
END
$$;
