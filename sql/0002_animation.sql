-- Animated stickers report their play time and loop count (0 loops: forever) next to the frame count.
ALTER TABLE assets
    ADD COLUMN duration_ms integer NOT NULL DEFAULT 0,
    ADD COLUMN loops integer NOT NULL DEFAULT 0;
