-- Scheduled visibility: groups and stickers may carry `publish_at` and `unpublish_at`, and are visible in
-- [publish_at, unpublish_at) only. Every trigger, the change log and the snapshot already look at what is visible
-- (`sticker_groups.published`): that column now holds what is visible at the schedule's current moment, and the
-- admin's choice moves to `listed`. A sticker gets the same in `visible`. Rows flip at a boundary through
-- `apply_schedule`, which every replica calls when a boundary passes; the first flips them and raises the revision
-- once, the others find nothing left to flip.

-- One revision per transaction: a boundary that flips groups and stickers together, or an upload with its renditions,
-- is one visible change (clients and replicas wake once). Later statements log at the revision already raised.
CREATE OR REPLACE FUNCTION raise_catalog_revision() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    next bigint;
BEGIN
    IF current_setting('stickercatalog.revision_raised', true) = 'on' THEN
        RETURN;
    END IF;
    UPDATE catalog_revision SET revision = revision + 1 RETURNING revision INTO next;
    PERFORM pg_notify('catalog_revision', next::text);
    PERFORM set_config('stickercatalog.revision_raised', 'on', true);
END
$$;

-- The moment schedules were last applied at; it never goes back, whichever replica's clock is behind.
CREATE TABLE catalog_schedule (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    applied_at timestamptz NOT NULL
);
INSERT INTO catalog_schedule (applied_at) VALUES (now());

-- The moment a write is judged at: the database's clock when the row is written (not the transaction's start), or
-- the schedule's when it is ahead (a test's clock).
CREATE FUNCTION schedule_now() RETURNS timestamptz LANGUAGE sql VOLATILE AS $$
    SELECT greatest(clock_timestamp(), (SELECT applied_at FROM catalog_schedule))
$$;

CREATE FUNCTION in_schedule(publish_at timestamptz, unpublish_at timestamptz, moment timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT (publish_at IS NULL OR publish_at <= moment) AND (unpublish_at IS NULL OR moment < unpublish_at)
$$;

ALTER TABLE sticker_groups
    ADD COLUMN listed boolean,
    ADD COLUMN publish_at timestamptz,
    ADD COLUMN unpublish_at timestamptz,
    ADD CONSTRAINT sticker_groups_schedule_check CHECK (publish_at < unpublish_at);
UPDATE sticker_groups SET listed = published;
ALTER TABLE sticker_groups ALTER COLUMN listed SET NOT NULL;

ALTER TABLE stickers
    ADD COLUMN publish_at timestamptz,
    ADD COLUMN unpublish_at timestamptz,
    ADD COLUMN visible boolean NOT NULL DEFAULT true,
    ADD CONSTRAINT stickers_schedule_check CHECK (publish_at < unpublish_at);

-- Only scheduled rows can flip; these keep `apply_schedule`'s scans to them.
CREATE INDEX sticker_groups_scheduled ON sticker_groups (id) WHERE publish_at IS NOT NULL OR unpublish_at IS NOT NULL;
CREATE INDEX stickers_scheduled ON stickers (id) WHERE publish_at IS NOT NULL OR unpublish_at IS NOT NULL;

-- What is visible follows from the admin's choice and the schedule, on every write. A write waits for a schedule
-- being applied (a shared lock against `apply_schedule`'s exclusive one, held to commit), so that it is judged after
-- it: otherwise a write committing just after a boundary was applied, judged at a moment before it, would stay
-- visible past its own unpublish_at with no boundary left to find it.
-- Replicas of the previous release, during a rolling update, write `published` as the admin's choice: an insert
-- without `listed` takes it from there, and an update of `published` alone (not by `apply_schedule`) is one of `listed`.
CREATE FUNCTION sticker_groups_schedule() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1396918354);
    IF TG_OP = 'INSERT' THEN
        NEW.listed := COALESCE(NEW.listed, NEW.published);
    ELSIF NEW.published IS DISTINCT FROM OLD.published AND NEW.listed IS NOT DISTINCT FROM OLD.listed
          AND current_setting('stickercatalog.applying_schedule', true) IS DISTINCT FROM 'on' THEN
        NEW.listed := NEW.published;
    END IF;
    NEW.published := NEW.listed AND in_schedule(NEW.publish_at, NEW.unpublish_at, schedule_now());
    RETURN NEW;
END
$$;
CREATE TRIGGER sticker_groups_schedule BEFORE INSERT OR UPDATE ON sticker_groups
    FOR EACH ROW EXECUTE FUNCTION sticker_groups_schedule();

CREATE FUNCTION stickers_schedule() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1396918354);
    NEW.visible := in_schedule(NEW.publish_at, NEW.unpublish_at, schedule_now());
    RETURN NEW;
END
$$;
CREATE TRIGGER stickers_schedule BEFORE INSERT OR UPDATE ON stickers
    FOR EACH ROW EXECUTE FUNCTION stickers_schedule();

-- Flips what `moment` (or a later moment already applied) makes visible or hidden, in one transaction and so one
-- revision; returns the next boundary after it, if any. Every replica calls it every second: it writes only when a
-- boundary has passed since the last moment applied, and replicas take turns on the lock (the second finds nothing).
-- `max_ahead`: how far past the database's clock a replica's moment is believed (a pod whose clock runs a day fast
-- must not publish a day early, for good); null believes it (a test's clock).
CREATE FUNCTION apply_schedule(moment timestamptz, max_ahead interval DEFAULT NULL) RETURNS timestamptz LANGUAGE plpgsql AS $$
DECLARE
    applied timestamptz;
    due timestamptz;
BEGIN
    IF max_ahead IS NOT NULL THEN
        moment := least(moment, clock_timestamp() + max_ahead);
    END IF;
    SELECT applied_at INTO applied FROM catalog_schedule;
    due := next_schedule_boundary(applied);
    IF due IS NULL OR due > moment THEN
        RETURN due;
    END IF;
    PERFORM pg_advisory_xact_lock(1396918354);  -- 'SCHR'
    PERFORM set_config('stickercatalog.applying_schedule', 'on', true);
    UPDATE catalog_schedule SET applied_at = greatest(applied_at, moment) RETURNING applied_at INTO applied;
    UPDATE sticker_groups SET published = listed AND in_schedule(publish_at, unpublish_at, applied)
    WHERE (publish_at IS NOT NULL OR unpublish_at IS NOT NULL)
      AND published IS DISTINCT FROM (listed AND in_schedule(publish_at, unpublish_at, applied));
    UPDATE stickers SET visible = in_schedule(publish_at, unpublish_at, applied)
    WHERE (publish_at IS NOT NULL OR unpublish_at IS NOT NULL)
      AND visible IS DISTINCT FROM in_schedule(publish_at, unpublish_at, applied);
    RETURN next_schedule_boundary(applied);
END
$$;

-- The first moment after `moment` at which a listed group or any sticker may appear or leave (a draft's stickers too:
-- listing the group later shows them as their schedules say).
CREATE FUNCTION next_schedule_boundary(moment timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT min(b) FROM (
        SELECT least(CASE WHEN publish_at > moment THEN publish_at END, CASE WHEN unpublish_at > moment THEN unpublish_at END)
        FROM sticker_groups WHERE listed AND (publish_at IS NOT NULL OR unpublish_at IS NOT NULL)
        UNION ALL
        SELECT least(CASE WHEN publish_at > moment THEN publish_at END, CASE WHEN unpublish_at > moment THEN unpublish_at END)
        FROM stickers WHERE publish_at IS NOT NULL OR unpublish_at IS NOT NULL
    ) boundaries(b)
$$;

-- Stickers: visible only while `visible`, as groups only while published. As in 0009, with the sticker's own visibility.
CREATE OR REPLACE FUNCTION stickers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published AND s.visible LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows s JOIN sticker_groups g ON g.id = s.group_id WHERE g.published AND s.visible LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (id)
        WHERE ((o.visible AND EXISTS (SELECT 1 FROM sticker_groups g WHERE g.published AND g.id = o.group_id))
            OR (n.visible AND EXISTS (SELECT 1 FROM sticker_groups g WHERE g.published AND g.id = n.group_id)))
          AND (o.group_id, o.name, o.description, o.localized_descriptions, o.flags, o.keywords, o.emoji, o.position, o.asset_sha256, o.visible)
              IS DISTINCT FROM
              (n.group_id, n.name, n.description, n.localized_descriptions, n.flags, n.keywords, n.emoji, n.position, n.asset_sha256, n.visible)
        LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION stickers_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(SELECT DISTINCT group_id FROM new_rows WHERE visible)));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(SELECT DISTINCT group_id FROM old_rows WHERE visible)));
        PERFORM log_catalog_changes('sticker', ARRAY(SELECT o.id::text FROM old_rows o JOIN sticker_groups g ON g.id = o.group_id
                                                     WHERE g.published AND o.visible));
    ELSE
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(
            SELECT group_id FROM old_rows WHERE visible UNION SELECT group_id FROM new_rows WHERE visible)));
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION renditions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows o JOIN stickers s ON s.asset_sha256 = o.source_sha256
            JOIN sticker_groups g ON g.id = s.group_id WHERE g.published AND s.visible LIMIT 1;
    ELSIF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows n JOIN stickers s ON s.asset_sha256 = n.source_sha256
            JOIN sticker_groups g ON g.id = s.group_id WHERE g.published AND s.visible LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (source_sha256, edge, still, format)
            JOIN stickers s ON s.asset_sha256 = n.source_sha256 JOIN sticker_groups g ON g.id = s.group_id
        WHERE g.published AND s.visible AND o.asset_sha256 IS DISTINCT FROM n.asset_sha256 LIMIT 1;
    END IF;
    IF FOUND THEN
        PERFORM raise_catalog_revision();
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION renditions_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(
            SELECT DISTINCT s.group_id FROM stickers s JOIN new_rows n ON n.source_sha256 = s.asset_sha256 WHERE s.visible)));
    ELSE
        PERFORM log_catalog_changes('group', published_group_ids(ARRAY(
            SELECT DISTINCT s.group_id FROM stickers s JOIN old_rows o ON o.source_sha256 = s.asset_sha256 WHERE s.visible)));
    END IF;
    RETURN NULL;
END
$$;

-- The order of visible groups, as clients see it (manifest positions count visible groups only). Stored positions
-- count hidden groups too: creating, moving or deleting a draft or a scheduled group among published ones shifts
-- theirs, which raised the revision and logged them though no manifest changed (a client learnt that something
-- hidden happened). A group's position is now a visible change only when the visible order changes.
CREATE TABLE catalog_visible_order (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    ids text[] NOT NULL
);
INSERT INTO catalog_visible_order (ids)
    SELECT COALESCE(array_agg(id ORDER BY position, name, id), '{}') FROM sticker_groups WHERE published;

-- Stores the visible order as it is now and returns the groups whose place in it changed (a group that appears moves
-- the ones after it; those that leave are logged by the callers).
CREATE FUNCTION visible_order_shift() RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    current text[];
    previous text[];
BEGIN
    SELECT COALESCE(array_agg(id ORDER BY position, name, id), '{}') INTO current FROM sticker_groups WHERE published;
    SELECT ids INTO previous FROM catalog_visible_order;
    IF current = previous THEN
        RETURN '{}';
    END IF;
    UPDATE catalog_visible_order SET ids = current;
    RETURN ARRAY(SELECT n.id FROM unnest(current) WITH ORDINALITY AS n(id, place)
                 LEFT JOIN unnest(previous) WITH ORDINALITY AS o(id, place) USING (id)
                 WHERE o.place IS DISTINCT FROM n.place);
END
$$;

-- As in 0003, with stored positions left out of what a client sees and the visible order compared instead; groups
-- whose place changed are logged here, at the revision just raised.
CREATE OR REPLACE FUNCTION sticker_groups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    shifted text[];
    visible boolean;
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM 1 FROM new_rows WHERE published LIMIT 1;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM 1 FROM old_rows WHERE published LIMIT 1;
    ELSE
        PERFORM 1 FROM old_rows o JOIN new_rows n USING (id)
        WHERE (o.published OR n.published)
          AND (o.name, o.localized_names, o.size_class, o.flags, o.product_id, o.published, o.cover_sticker_id)
              IS DISTINCT FROM
              (n.name, n.localized_names, n.size_class, n.flags, n.product_id, n.published, n.cover_sticker_id)
        LIMIT 1;
    END IF;
    visible := FOUND;
    shifted := visible_order_shift();
    IF visible OR cardinality(shifted) > 0 THEN
        PERFORM raise_catalog_revision();
        PERFORM log_catalog_changes('group', shifted);
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION sticker_groups_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM new_rows WHERE published));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM log_catalog_changes('group', ARRAY(SELECT id FROM old_rows WHERE published));
    ELSE
        -- content_version alone moves with the group's stickers, which log the group themselves; a move is logged
        -- by sticker_groups_changed when the visible order changed.
        PERFORM log_catalog_changes('group', ARRAY(SELECT n.id FROM old_rows o JOIN new_rows n USING (id)
            WHERE (o.published OR n.published)
              AND (o.name, o.localized_names, o.size_class, o.flags, o.product_id, o.published, o.cover_sticker_id)
                  IS DISTINCT FROM
                  (n.name, n.localized_names, n.size_class, n.flags, n.product_id, n.published, n.cover_sticker_id)));
    END IF;
    RETURN NULL;
END
$$;
