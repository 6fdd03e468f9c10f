-- A rewound database (a failover that lost commits, a restore from a backup) hands out revision numbers again: a
-- cursor or a cached index named by its number alone would pass for the lost history once the number came back. Each
-- revision is now stamped with a random number when it is raised, and a (revision, stamp) pair names one point of one
-- history: change-feed cursors carry the stamp of their revision and are refused when the database stamps that
-- revision otherwise (or no longer has it), and a replica that finds the stamp of the snapshot it holds changed
-- reads the whole catalog again, in a new epoch.

ALTER TABLE catalog_revision ADD COLUMN stamp bigint NOT NULL DEFAULT 0;

-- The stamp of every revision since the change-feed horizon; `stickerd gc` prunes it with the change log. Revisions
-- before this migration are stamped 0, the stamp cursors handed out before it are read with.
CREATE TABLE catalog_revision_stamps (
    revision bigint PRIMARY KEY,
    stamp bigint NOT NULL
);
INSERT INTO catalog_revision_stamps (revision, stamp)
SELECT g, 0 FROM catalog_change_horizon h, catalog_revision r, generate_series(h.revision, r.revision) AS g;

-- A new stamp for any new revision number, however it was set (the triggers that raise it, or an operator's UPDATE
-- setting it back): a number set again is a new point, never the one a cursor saw.
CREATE FUNCTION stamp_catalog_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.stamp := 1 + floor(random() * 9007199254740990)::bigint;
    INSERT INTO catalog_revision_stamps (revision, stamp) VALUES (NEW.revision, NEW.stamp)
    ON CONFLICT (revision) DO UPDATE SET stamp = EXCLUDED.stamp;
    RETURN NEW;
END
$$;
CREATE TRIGGER catalog_revision_stamped BEFORE UPDATE ON catalog_revision
    FOR EACH ROW WHEN (NEW.revision IS DISTINCT FROM OLD.revision) EXECUTE FUNCTION stamp_catalog_revision();

-- Notifications carry the stamp ("revision:stamp"): a replica hearing its own revision number with another stamp
-- knows at once that the database went back and came up to that number again.
CREATE OR REPLACE FUNCTION bump_catalog_revision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    next bigint;
    stamped bigint;
BEGIN
    UPDATE catalog_revision SET revision = revision + 1 RETURNING revision, stamp INTO next, stamped;
    PERFORM pg_notify('catalog_revision', next::text || ':' || stamped::text);
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION raise_catalog_revision() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    next bigint;
    stamped bigint;
BEGIN
    IF current_setting('stickercatalog.revision_raised', true) = 'on' THEN
        RETURN;
    END IF;
    UPDATE catalog_revision SET revision = revision + 1 RETURNING revision, stamp INTO next, stamped;
    INSERT INTO catalog_releases (revision, author, restored_from)
    VALUES (next, COALESCE(NULLIF(current_setting('stickercatalog.author', true), ''), 'database'),
            NULLIF(current_setting('stickercatalog.restored_from', true), '')::bigint);
    PERFORM pg_notify('catalog_revision', next::text || ':' || stamped::text);
    PERFORM set_config('stickercatalog.revision_raised', 'on', true);
END
$$;
