-- Deliveries anyone can send (a bad signature, a body that is not an event) are kept only up to a limit, oldest
-- dropped first: this index finds the oldest of them without reading the rest of the inbox.
CREATE INDEX webhook_events_unauthenticated ON webhook_events (id) WHERE quarantined AND status IN ('unauthorized', 'malformed');
-- Deleting a delivery checks that no audit entry names it: without this index, a scan of the whole audit per row.
CREATE INDEX entitlement_audit_webhook_event ON entitlement_audit (webhook_event_id) WHERE webhook_event_id IS NOT NULL;
