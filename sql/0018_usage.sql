-- Usage counts for trending, search's tie-break and an admin's stats: how many times each sticker was sent, viewed or
-- tapped in each hour, and in which group it was then (a group's counts are the sum of its rows). Nothing about who:
-- no user, token subject, address or device is stored. Replicas sum events in memory and add them every few seconds
-- with one upsert (`count = count + excluded.count`), rows sorted by key so two replicas lock them in one order.
-- `stickerd gc --usage-retention-days` (400) deletes the hours that ended before it.
-- No foreign key to stickers: counts outlive a deleted sticker for the admin's stats until retention ends them.
CREATE TABLE sticker_usage (
    hour timestamptz NOT NULL CHECK (extract(epoch FROM hour) % 3600 = 0),
    action text NOT NULL CHECK (action IN ('sent', 'viewed', 'tapped')),
    sticker_id uuid NOT NULL,
    group_id text NOT NULL,
    count bigint NOT NULL CHECK (count > 0),
    PRIMARY KEY (hour, action, sticker_id)
);

-- One sticker's history (an admin's chart of it) without reading every sticker's hours.
CREATE INDEX sticker_usage_by_sticker ON sticker_usage (sticker_id, action, hour);
