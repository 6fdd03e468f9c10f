-- Positions always 0..n-1, localisation keys in canonical BCP 47 form, and a catalog revision that rises only when
-- something clients can see changes (statement triggers used to fire on zero rows and on no-op updates).

-- Canonical BCP 47 case: language lowercase, script Titlecase, region uppercase, subtags joined by '-'.
CREATE FUNCTION canonical_locale_tag(tag text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(CASE
        WHEN n = 1 THEN lower(part)
        WHEN part ~ '^[A-Za-z]{4}$' THEN initcap(part)
        WHEN part ~ '^[A-Za-z]{2}$' THEN upper(part)
        ELSE lower(part) END, '-' ORDER BY n)
    FROM regexp_split_to_table(tag, '[-_]') WITH ORDINALITY AS t(part, n)
$$;

UPDATE sticker_groups SET localized_names =
    (SELECT COALESCE(jsonb_object_agg(canonical_locale_tag(key), value), '{}') FROM jsonb_each(localized_names))
WHERE localized_names <> '{}';
UPDATE stickers SET localized_descriptions =
    (SELECT COALESCE(jsonb_object_agg(canonical_locale_tag(key), value), '{}') FROM jsonb_each(localized_descriptions))
WHERE localized_descriptions <> '{}';

-- Positions: renumber in today's display order, then keep them unique and non-negative.
UPDATE sticker_groups g SET position = o.n - 1
FROM (SELECT id, row_number() OVER (ORDER BY position, name, id) AS n FROM sticker_groups) o
WHERE g.id = o.id AND g.position <> o.n - 1;
UPDATE stickers s SET position = o.n - 1
FROM (SELECT id, row_number() OVER (PARTITION BY group_id ORDER BY position, created_at, id) AS n FROM stickers) o
WHERE s.id = o.id AND s.position <> o.n - 1;
ALTER TABLE sticker_groups
    ADD CONSTRAINT sticker_groups_position_check CHECK (position >= 0),
    ADD CONSTRAINT sticker_groups_position_unique UNIQUE (position) DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE stickers
    ADD CONSTRAINT stickers_position_check CHECK (position >= 0),
    ADD CONSTRAINT stickers_position_unique UNIQUE (group_id, position) DEFERRABLE INITIALLY DEFERRED;

-- The revision: raised by the triggers below only when a statement changed what clients see.
CREATE FUNCTION raise_catalog_revision() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    next bigint;
BEGIN
    UPDATE catalog_revision SET revision = revision + 1 RETURNING revision INTO next;
    PERFORM pg_notify('catalog_revision', next::text);
END
$$;

-- A group is visible while published; timestamps are not part of what clients see.
CREATE FUNCTION sticker_groups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows WHERE published LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows WHERE published LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (id)
        WHERE (o.published OR n.published)
          AND (o.name, o.localized_names, o.size_class, o.flags, o.product_id, o.position, o.published, o.cover_sticker_id)
              IS DISTINCT FROM
              (n.name, n.localized_names, n.size_class, n.flags, n.product_id, n.position, n.published, n.cover_sticker_id)
        LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

-- A sticker is visible while its group is published (a deleted group raises the revision itself).
CREATE FUNCTION stickers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (id) JOIN sticker_groups g ON g.id = n.group_id
        WHERE g.published
          AND (o.group_id, o.name, o.description, o.localized_descriptions, o.flags, o.keywords, o.emoji, o.position, o.asset_sha256)
              IS DISTINCT FROM
              (n.group_id, n.name, n.description, n.localized_descriptions, n.flags, n.keywords, n.emoji, n.position, n.asset_sha256)
        LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION filters_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (name)
        WHERE (o.title, o.required_flags) IS DISTINCT FROM (n.title, n.required_flags) LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER sticker_groups_revision ON sticker_groups;
DROP TRIGGER stickers_revision ON stickers;
DROP TRIGGER filters_revision ON filters;

-- Transition tables allow one event per trigger, hence three per table.
CREATE TRIGGER sticker_groups_inserted AFTER INSERT ON sticker_groups REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sticker_groups_changed();
CREATE TRIGGER sticker_groups_updated AFTER UPDATE ON sticker_groups REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sticker_groups_changed();
CREATE TRIGGER sticker_groups_deleted AFTER DELETE ON sticker_groups REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sticker_groups_changed();
CREATE TRIGGER stickers_inserted AFTER INSERT ON stickers REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_changed();
CREATE TRIGGER stickers_updated AFTER UPDATE ON stickers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_changed();
CREATE TRIGGER stickers_deleted AFTER DELETE ON stickers REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION stickers_changed();
CREATE TRIGGER filters_inserted AFTER INSERT ON filters REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION filters_changed();
CREATE TRIGGER filters_updated AFTER UPDATE ON filters REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION filters_changed();
CREATE TRIGGER filters_deleted AFTER DELETE ON filters REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION filters_changed();
