-- Renditions: every sticker image fitted in each box edge of the size-class table, still and (for an APNG)
-- animated, stored as assets like the originals. And what garbage collection needs: when an image stopped being used.

CREATE TABLE renditions (
    source_sha256 text NOT NULL REFERENCES assets (sha256) ON DELETE CASCADE,
    edge integer NOT NULL CHECK (edge > 0),
    still boolean NOT NULL,
    asset_sha256 text NOT NULL REFERENCES assets (sha256) ON DELETE CASCADE,
    PRIMARY KEY (source_sha256, edge, still)
);
CREATE INDEX renditions_asset ON renditions (asset_sha256);

ALTER TABLE assets
    -- For an uploaded image: the version of the rendition code its renditions were made with; 0 means none yet.
    ADD COLUMN renditions_version integer NOT NULL DEFAULT 0,
    -- When the last sticker showing this image (itself, or the image it is a rendition of) went away; NULL while used.
    ADD COLUMN unreferenced_since timestamptz;
CREATE INDEX assets_unreferenced ON assets (unreferenced_since) WHERE unreferenced_since IS NOT NULL;

-- Stickers going away leave their images, and their renditions, unreferenced from now (unless another sticker shows
-- them); a sticker coming (back) makes them used again.
CREATE FUNCTION stickers_release_assets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE assets a SET unreferenced_since = now()
    WHERE a.unreferenced_since IS NULL
      AND a.sha256 IN (SELECT o.asset_sha256 FROM old_rows o
                       UNION SELECT r.asset_sha256 FROM renditions r JOIN old_rows o ON o.asset_sha256 = r.source_sha256)
      AND NOT EXISTS (SELECT 1 FROM stickers s WHERE s.asset_sha256 = a.sha256)
      AND NOT EXISTS (SELECT 1 FROM renditions r JOIN stickers s ON s.asset_sha256 = r.source_sha256 WHERE r.asset_sha256 = a.sha256);
    RETURN NULL;
END
$$;

CREATE FUNCTION stickers_hold_assets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE assets a SET unreferenced_since = NULL
    WHERE a.unreferenced_since IS NOT NULL
      AND a.sha256 IN (SELECT n.asset_sha256 FROM new_rows n
                       UNION SELECT r.asset_sha256 FROM renditions r JOIN new_rows n ON n.asset_sha256 = r.source_sha256);
    RETURN NULL;
END
$$;

CREATE TRIGGER stickers_release AFTER DELETE ON stickers REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_release_assets();
CREATE TRIGGER stickers_hold AFTER INSERT ON stickers REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_hold_assets();

-- New or rebuilt renditions change what manifests name (an upload's, a rebuild's); a statement touching none does not.
CREATE FUNCTION renditions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows LIMIT 1;
    ELSIF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (source_sha256, edge, still)
        WHERE o.asset_sha256 IS DISTINCT FROM n.asset_sha256 LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER renditions_inserted AFTER INSERT ON renditions REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_changed();
CREATE TRIGGER renditions_updated AFTER UPDATE ON renditions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_changed();
CREATE TRIGGER renditions_deleted AFTER DELETE ON renditions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION renditions_changed();
