-- The catalog: groups, stickers, their images, filters and admin tokens.
-- Append-only: a change to the schema is a new numbered file, never an edit of this one.

-- One row holding the catalog revision clients see; every visible change raises it.
CREATE TABLE catalog_revision (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    revision bigint NOT NULL
);
INSERT INTO catalog_revision (revision) VALUES (1);

-- Raises the revision once per changing statement and tells every listening replica on commit.
CREATE FUNCTION bump_catalog_revision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    next bigint;
BEGIN
    UPDATE catalog_revision SET revision = revision + 1 RETURNING revision INTO next;
    PERFORM pg_notify('catalog_revision', next::text);
    RETURN NULL;
END
$$;

-- Image bytes, content-addressed: the same image uploaded twice is stored once.
CREATE TABLE assets (
    sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    bytes bytea NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    animated boolean NOT NULL,
    frames integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sticker_groups (
    id text PRIMARY KEY CHECK (id ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
    localized_names jsonb NOT NULL DEFAULT '{}',
    size_class text NOT NULL DEFAULT 'medium' CHECK (size_class IN ('small', 'medium', 'large')),
    flags text[] NOT NULL DEFAULT '{}',
    product_id text,
    position integer NOT NULL DEFAULT 0,
    published boolean NOT NULL DEFAULT true,
    cover_sticker_id uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stickers (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    group_id text NOT NULL REFERENCES sticker_groups (id) ON DELETE CASCADE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
    description text NOT NULL CHECK (char_length(description) <= 150),
    localized_descriptions jsonb NOT NULL DEFAULT '{}',
    flags text[] NOT NULL DEFAULT '{}',
    keywords text[] NOT NULL DEFAULT '{}',
    emoji text[] NOT NULL DEFAULT '{}',
    position integer NOT NULL DEFAULT 0,
    asset_sha256 text NOT NULL REFERENCES assets (sha256),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stickers_group_order ON stickers (group_id, position, created_at);

ALTER TABLE sticker_groups
    ADD CONSTRAINT sticker_groups_cover_fk FOREIGN KEY (cover_sticker_id) REFERENCES stickers (id) ON DELETE SET NULL;

CREATE TABLE filters (
    name text PRIMARY KEY CHECK (name ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
    title text NOT NULL,
    required_flags text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 of each token is kept; the token itself is shown once, when created.
CREATE TABLE admin_tokens (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL,
    token_sha256 bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER sticker_groups_revision AFTER INSERT OR UPDATE OR DELETE ON sticker_groups
    FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_revision();
CREATE TRIGGER stickers_revision AFTER INSERT OR UPDATE OR DELETE ON stickers
    FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_revision();
CREATE TRIGGER filters_revision AFTER INSERT OR UPDATE OR DELETE ON filters
    FOR EACH STATEMENT EXECUTE FUNCTION bump_catalog_revision();
