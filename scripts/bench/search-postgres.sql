-- The search index as PostgreSQL would keep it (issue 23's alternative): one row per visible sticker with every text
-- it is found by (names split at case changes, keywords, descriptions and group names in every locale), lowercased
-- and unaccented; a tsvector GIN index for words and prefixes, a pg_trgm GIN index for typos, a GIN index on emoji.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
DROP TABLE IF EXISTS search_docs;
CREATE TABLE search_docs AS
SELECT s.id, s.name, row_number() OVER (ORDER BY g.position, g.name, s.position) AS ordinal, s.emoji,
       lower(unaccent(concat_ws(' ', regexp_replace(s.name, '([a-z])([A-Z])', '\1 \2', 'g'), array_to_string(s.keywords, ' '),
         s.description, (SELECT string_agg(value, ' ') FROM jsonb_each_text(s.localized_descriptions)), g.name,
         (SELECT string_agg(value, ' ') FROM jsonb_each_text(g.localized_names))))) AS doc
FROM stickers s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published;
ALTER TABLE search_docs ADD COLUMN tsv tsvector;
UPDATE search_docs SET tsv = to_tsvector('simple', doc);
CREATE INDEX search_docs_tsv ON search_docs USING gin (tsv);
CREATE INDEX search_docs_trgm ON search_docs USING gin (doc gin_trgm_ops);
CREATE INDEX search_docs_emoji ON search_docs USING gin (emoji);
ALTER DATABASE stickerd SET pg_trgm.word_similarity_threshold = 0.5;
VACUUM ANALYZE search_docs;
SELECT pg_size_pretty(pg_total_relation_size('search_docs')) AS "table and indexes";
