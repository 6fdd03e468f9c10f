-- Deliveries anyone can send (a bad signature, a body that is not an event) are kept only up to a limit, oldest
-- dropped first: this index finds the oldest of them without reading the rest of the inbox.
CREATE INDEX webhook_events_unauthenticated ON webhook_events (id) WHERE quarantined AND status IN ('unauthorized', 'malformed');
