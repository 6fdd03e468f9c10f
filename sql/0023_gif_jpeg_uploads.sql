-- GIF and JPEG uploads (issue 50): an upload's own file, stored as it came (metadata stripped), may now be a GIF or a
-- JPEG. Its renditions stay PNG and WebP, so the renditions table keeps its check.
ALTER TABLE assets DROP CONSTRAINT assets_format_check;
ALTER TABLE assets ADD CONSTRAINT assets_format_check CHECK (format IN ('png', 'webp', 'gif', 'jpeg'));
