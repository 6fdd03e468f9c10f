-- Each quarantine (source, status) is bounded in bytes as well as rows: 10,000 refused deliveries of 64 KiB bodies
-- with 78 KB signature headers were 1.4 GB for one source. Each row records the bytes it keeps (body, signature and
-- event id), and the quarantine's index carries that number, so pruning sums the newest rows from the index alone.
-- Rows already quarantined are counted now; inbox rows get theirs if they are ever quarantined.
ALTER TABLE webhook_events ADD COLUMN stored_bytes integer;
UPDATE webhook_events SET stored_bytes = octet_length(body) + coalesce(octet_length(signature), 0) + coalesce(octet_length(event_id), 0)
WHERE quarantined;
DROP INDEX webhook_events_quarantine;
CREATE INDEX webhook_events_quarantine ON webhook_events (source, status, id) INCLUDE (stored_bytes) WHERE quarantined;
