-- A catalog of :stickers stickers beside the demo for the search benchmark (psql -v stickers=10000): groups of 50, each
-- sticker named, described (English by default, French and German translations) and tagged from a vocabulary of 60
-- candy words in three languages, plus a made-up brand word from 24 syllables (13,824 possible) as a keyword, so the
-- index holds many distinct terms as a real catalog would; pictures shared with the demo's (search never reads them).
CREATE TEMP TABLE vocab (i int, en text, fr text, de text);
INSERT INTO vocab SELECT row_number() OVER () - 1, * FROM (VALUES
  ('apple','pomme','apfel'), ('banana','banane','banane'), ('cherry','cerise','kirsche'), ('lemon','citron','zitrone'),
  ('orange','orange','orange'), ('strawberry','fraise','erdbeere'), ('raspberry','framboise','himbeere'), ('peach','peche','pfirsich'),
  ('pear','poire','birne'), ('plum','prune','pflaume'), ('grape','raisin','traube'), ('melon','melon','melone'),
  ('coconut','noix de coco','kokosnuss'), ('almond','amande','mandel'), ('hazelnut','noisette','haselnuss'), ('walnut','noix','walnuss'),
  ('pistachio','pistache','pistazie'), ('peanut','cacahuete','erdnuss'), ('caramel','caramel','karamell'), ('toffee','caramel mou','sahnebonbon'),
  ('fudge','fondant','fudge'), ('nougat','nougat','nugat'), ('marzipan','massepain','marzipan'), ('praline','praline','praline'),
  ('truffle','truffe','trueffel'), ('chocolate','chocolat','schokolade'), ('cocoa','cacao','kakao'), ('vanilla','vanille','vanille'),
  ('cinnamon','cannelle','zimt'), ('ginger','gingembre','ingwer'), ('honey','miel','honig'), ('sugar','sucre','zucker'),
  ('cream','creme','sahne'), ('butter','beurre','butter'), ('cookie','biscuit','keks'), ('waffle','gaufre','waffel'),
  ('pancake','crepe','pfannkuchen'), ('donut','beignet','krapfen'), ('cupcake','petit gateau','toertchen'), ('muffin','muffin','muffin'),
  ('brownie','brownie','brownie'), ('pudding','pouding','pudding'), ('jelly','gelee','gelee'), ('gummy','gomme','gummi'),
  ('licorice','reglisse','lakritz'), ('lollipop','sucette','lutscher'), ('candy','bonbon','bonbon'), ('mint','menthe','minze'),
  ('popcorn','pop-corn','popcorn'), ('pretzel','bretzel','brezel'), ('meringue','meringue','baiser'), ('macaron','macaron','makrone'),
  ('eclair','eclair','eclair'), ('croissant','croissant','hoernchen'), ('tart','tarte','torte'), ('pie','tourte','kuchen'),
  ('icecream','glace','eis'), ('sorbet','sorbet','sorbet'), ('milkshake','milk-shake','milchshake'), ('syrup','sirop','sirup')
) v;
CREATE TEMP TABLE adjective (i int, en text, fr text, de text);
INSERT INTO adjective SELECT row_number() OVER () - 1, * FROM (VALUES
  ('crunchy','croquant','knusprig'), ('chewy','moelleux','weich'), ('sweet','sucre','suess'), ('sour','acide','sauer'),
  ('golden','dore','golden'), ('frozen','glace','gefroren'), ('happy','joyeux','froehlich'), ('sleepy','endormi','schlaefrig'),
  ('tiny','minuscule','winzig'), ('giant','geant','riesig'), ('sparkly','petillant','glitzernd'), ('spicy','epice','scharf')
) a;
CREATE TEMP TABLE syllable (i int, s text);
INSERT INTO syllable SELECT row_number() OVER () - 1, s FROM unnest(ARRAY['ka','zo','mi','ru','pel','dor','fin','gla','tu','ven','bo',
  'sha','lin','mo','qui','rex','sa','tor','ul','wen','ya','zu','nix','pra']) s;
CREATE TEMP TABLE pictures AS SELECT sha, row_number() OVER (ORDER BY sha) - 1 AS k FROM (SELECT DISTINCT asset_sha256 AS sha FROM stickers) s;
INSERT INTO sticker_groups (id, name, localized_names, position)
SELECT 'search-' || g, initcap(a.en) || ' ' || initcap(v.en) || ' ' || g,
       jsonb_build_object('fr', initcap(v.fr) || ' ' || a.fr || ' ' || g, 'de', initcap(a.de) || ' ' || initcap(v.de) || ' ' || g), 100 + g
FROM generate_series(1, (:stickers + 49) / 50) g
JOIN vocab v ON v.i = (g * 7) % 60 JOIN adjective a ON a.i = g % 12;
-- The stickers in one transaction, their release history recorded in one statement: the per-row history trigger
-- (record_sticker_version, deferred to commit) grows faster than linearly with the rows one transaction inserts (10,000
-- took 7.5 s, 40,000 over 120 s; without it 100,000 take 4 s), which made the 100,000-sticker setup take over ten
-- minutes. The rows recorded are the ones the trigger would record.
BEGIN;
ALTER TABLE stickers DISABLE TRIGGER stickers_history;
INSERT INTO stickers (group_id, name, description, localized_descriptions, keywords, emoji, position, asset_sha256)
SELECT 'search-' || ((n - 1) / 50 + 1),
       initcap(a.en) || initcap(v1.en) || ' ' || n,
       'A ' || a.en || ' ' || v1.en || ' with ' || v2.en || ' and ' || v3.en,
       jsonb_build_object('fr', 'Un ' || v1.fr || ' ' || a.fr || ' au ' || v2.fr || ' et ' || v3.fr,
                          'de', 'Ein ' || a.de || 'es ' || v1.de || ' mit ' || v2.de || ' und ' || v3.de),
       ARRAY[v1.en, v2.en, s1.s || s2.s || s3.s],
       ARRAY[(ARRAY['🍎','🍌','🍒','🍋','🍊','🍓','🍑','🍐','🍇','🍈','🥥','🥜','🍮','🍬','🍭','🍫','🍪','🧁','🍩','🍰'])[1 + n % 20]],
       (n - 1) % 50,
       (SELECT sha FROM pictures WHERE k = n % (SELECT count(*) FROM pictures))
FROM generate_series(1, :stickers) n
JOIN vocab v1 ON v1.i = (n * 13) % 60 JOIN vocab v2 ON v2.i = (n * 29 + 7) % 60 JOIN vocab v3 ON v3.i = (n * 41 + 3) % 60
JOIN adjective a ON a.i = (n * 5) % 12
JOIN syllable s1 ON s1.i = n % 24 JOIN syllable s2 ON s2.i = (n / 24) % 24 JOIN syllable s3 ON s3.i = (n / 576) % 24;
ALTER TABLE stickers ENABLE TRIGGER stickers_history;
INSERT INTO stickers_history
SELECT id, group_id, name, description, localized_descriptions, flags, keywords, emoji, position, asset_sha256, publish_at,
       unpublish_at, visible, created_at, updated_at, recorded_revision(), NULL
FROM stickers WHERE group_id LIKE 'search-%';
COMMIT;
ANALYZE;
