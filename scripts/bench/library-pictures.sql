-- After catalog-search.sql, for the library benchmark: the stickers of the groups it installs (-v groups='{a,b}')
-- get pictures of their own, so their files are as many as their stickers (catalog-search shares the demo's nine):
-- each a new source image (the demo's bytes under a new digest) with the demo image's renditions, except the 200 px
-- PNG ones (the small class at @2x, the benchmark's view), made distinct by a suffix after IEND.
BEGIN;
CREATE TEMP TABLE lib AS
    SELECT s.id, s.asset_sha256 AS old, encode(sha256(convert_to('library ' || s.id, 'UTF8')), 'hex') AS new
    FROM stickers s WHERE s.group_id = ANY (:'groups'::text[]);
INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops, renditions_version, format,
                    placeholder)
SELECT l.new, a.bytes, a.width, a.height, a.animated, a.frames, a.duration_ms, a.loops, a.renditions_version, a.format,
       a.placeholder
FROM lib l JOIN assets a ON a.sha256 = l.old;
CREATE TEMP TABLE lib_small AS
    SELECT l.new AS source, r.still, a.bytes || convert_to('library ' || l.new || r.still, 'UTF8') AS bytes,
           a.width, a.height, a.animated, a.frames, a.duration_ms, a.loops
    FROM lib l JOIN renditions r ON r.source_sha256 = l.old AND r.edge = 200 AND r.format = 'png'
    JOIN assets a ON a.sha256 = r.asset_sha256;
INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops)
SELECT encode(sha256(bytes), 'hex'), bytes, width, height, animated, frames, duration_ms, loops FROM lib_small
ON CONFLICT DO NOTHING;
INSERT INTO renditions (source_sha256, edge, still, format, asset_sha256)
SELECT l.new, r.edge, r.still, r.format, COALESCE(encode(sha256(ls.bytes), 'hex'), r.asset_sha256)
FROM lib l JOIN renditions r ON r.source_sha256 = l.old
LEFT JOIN lib_small ls ON ls.source = l.new AND ls.still = r.still AND r.edge = 200 AND r.format = 'png';
UPDATE stickers s SET asset_sha256 = l.new FROM lib l WHERE s.id = l.id;
COMMIT;
