-- After catalog-10k.sql: every bench sticker's 200 px renditions (the small size class at @2x) made files of their own
-- (the shared bytes and a suffix after IEND), so a first sync of that view fetches 10,000 files, as a real catalog would.
-- PNG ones: the view the client benchmark syncs. Run after each part catalog-10k.sql adds: renditions made distinct
-- before (their bytes hold the suffix) are left as they are.
CREATE TEMP TABLE distinct_small AS
SELECT r.source_sha256, r.still, a.bytes || convert_to('bench ' || r.source_sha256 || r.still, 'UTF8') AS bytes,
       a.width, a.height, a.animated, a.frames, a.duration_ms, a.loops
FROM renditions r JOIN assets a ON a.sha256 = r.asset_sha256
WHERE r.edge = 200 AND r.format = 'png' AND r.source_sha256 IN (SELECT asset_sha256 FROM stickers WHERE group_id LIKE 'bench-%')
  AND position(convert_to('bench ', 'UTF8') IN a.bytes) = 0;
INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops)
SELECT encode(sha256(bytes), 'hex'), bytes, width, height, animated, frames, duration_ms, loops FROM distinct_small
ON CONFLICT DO NOTHING;
UPDATE renditions r SET asset_sha256 = encode(sha256(d.bytes), 'hex')
FROM distinct_small d WHERE r.source_sha256 = d.source_sha256 AND r.edge = 200 AND r.format = 'png' AND r.still = d.still;
ANALYZE;
