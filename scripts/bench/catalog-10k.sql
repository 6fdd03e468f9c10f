-- A 10,000-sticker catalog beside the demo: 200 groups of 50, every sticker its own source image, each image with the
-- renditions of one of the demo's images (shared rendition bytes: a manifest's size and shape are what is measured).
-- `psql -v first=1 -v last=40` adds groups 1 to 40 only (2,000 stickers); a later run with first=41 adds the rest.
\if :{?first}
\else
    \set first 1
\endif
\if :{?last}
\else
    \set last 200
\endif
CREATE TEMP TABLE demo AS
    SELECT sha, row_number() OVER (ORDER BY sha) - 1 AS k FROM (SELECT DISTINCT asset_sha256 AS sha FROM stickers WHERE group_id NOT LIKE 'bench-%') s;
INSERT INTO assets (sha256, bytes, width, height, animated, frames, duration_ms, loops, renditions_version, format,
                    placeholder)
SELECT encode(sha256(('bench-' || n)::bytea), 'hex'), a.bytes, a.width, a.height, a.animated, a.frames, a.duration_ms, a.loops,
       a.renditions_version, a.format, a.placeholder
FROM generate_series((:first - 1) * 50 + 1, :last * 50) n
JOIN demo d ON d.k = n % (SELECT count(*) FROM demo)
JOIN assets a ON a.sha256 = d.sha;
INSERT INTO renditions (source_sha256, edge, still, format, asset_sha256)
SELECT encode(sha256(('bench-' || n)::bytea), 'hex'), r.edge, r.still, r.format, r.asset_sha256
FROM generate_series((:first - 1) * 50 + 1, :last * 50) n
JOIN demo d ON d.k = n % (SELECT count(*) FROM demo)
JOIN renditions r ON r.source_sha256 = d.sha;
INSERT INTO sticker_groups (id, name, localized_names, flags, position)
SELECT 'bench-' || g, 'Bench group ' || g, jsonb_build_object('fr', 'Groupe ' || g),
       CASE WHEN g % 4 = 0 THEN ARRAY['chocolate'] ELSE ARRAY[]::text[] END, 100 + g
FROM generate_series(:first, :last) g;
INSERT INTO stickers (group_id, name, description, localized_descriptions, keywords, emoji, position, asset_sha256)
SELECT 'bench-' || g, 'Sticker ' || g || '-' || s, 'Bench sticker ' || s || ' of group ' || g,
       jsonb_build_object('fr', 'Autocollant ' || s), ARRAY['candy', 'bench'], ARRAY['🍬'], s - 1,
       encode(sha256(('bench-' || ((g - 1) * 50 + s))::bytea), 'hex')
FROM generate_series(:first, :last) g, generate_series(1, 50) s;
ANALYZE;
