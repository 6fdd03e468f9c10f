import Foundation

extension StickerSync {
    /// Syncs, then follows `/v1/events` and syncs on each change, until cancelled. Each request is tried once and this
    /// loop waits between tries: the service's `Retry-After` when it refused (a 503 `too_many_streams`), a random point
    /// within the reconnect window (or its `retry:`) after a stream that was up dropped, else a capped exponential
    /// backoff with full jitter; failures are forgotten only once a stream has stayed up for `healthy`. An expired
    /// cursor (410) makes the next sync start over; an expired token is refreshed once (`SyncOptions.credentials`).
    /// `onSync` hears every sync, `onError` every failure.
    public func follow(healthy: Duration = .seconds(60), onSync: @escaping @Sendable (Report) -> Void,
                       onError: @escaping @Sendable (any Error) -> Void = { _ in }) async {
        var failures = 0
        var serverRetry: Duration?
        while !Task.isCancelled {
            var opened: ContinuousClock.Instant?
            var wait: Duration?
            do {
                try await ServiceMiddleware.$singleAttempt.withValue(true) {
                    onSync(try await sync())
                    let events = try await service.events(options, from: try catalog.state()?.manifest.cursor)
                    opened = .now
                    for try await event in events {
                        if let retry = event.retry, retry >= 0 { serverRetry = .milliseconds(min(retry, 3_600_000)) }
                        guard event.event == "change" || event.event == "expired" else { continue }
                        onSync(try await sync())
                    }
                }
            } catch {
                if Task.isCancelled || error is CancellationError { return }
                onError(error)
                if case .unavailable(_, _, let after?) = error as? StickerClientError { wait = after + options.backoff.delay(after: 1) }
            }
            if let opened, ContinuousClock.now - opened >= healthy { failures = 0 }
            if opened != nil, wait == nil, failures == 0 {
                wait = options.backoff.reconnect(retry: serverRetry)
            }
            failures += 1
            do { try await sleep(wait ?? options.backoff.delay(after: failures)) } catch { return }
        }
    }
}
