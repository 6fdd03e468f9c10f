import Foundation

extension StickerSync {
    /// Syncs, then follows `/v1/events` and syncs on each change, until cancelled. Each request is tried once and this
    /// loop waits between tries: the longer of the service's `Retry-After` when it refused (a 503 `too_many_streams`)
    /// and the backoff below, a random point
    /// within the reconnect window (or its `retry:`) after a stream that was up dropped, else a capped exponential
    /// backoff with full jitter; failures are forgotten only once a stream has stayed up for `healthy`. An expired
    /// cursor (410) makes the next sync start over; an expired token is refreshed once (`credentials`). Files a sync
    /// could not fetch are tried again at the first event (a heartbeat at the latest) after a backoff.
    /// `onSync` hears every sync, `onError` every failure; `status` and `snapshots` follow them too.
    public func follow(
        healthy: Duration = .seconds(60), onSync: @escaping @Sendable (Report) -> Void = { _ in },
        onError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) async {
        following += 1
        defer { following -= 1 }
        var failures = 0
        var serverRetry: Duration?
        var files = FileRetry(backoff: options.backoff)
        while !Task.isCancelled {
            var opened: ContinuousClock.Instant?
            var wait: Duration?
            do {
                try await ServiceMiddleware.$singleAttempt.withValue(true) {
                    onSync(files.after(try await sync()))
                    let events = try await service.events(view, from: folder.bookmark()?.cursor)
                    opened = .now
                    for try await event in events {
                        if let retry = event.retry, retry >= 0 { serverRetry = .milliseconds(min(retry, 3_600_000)) }
                        guard event.event == "change" || event.event == "expired" || files.due else { continue }
                        onSync(files.after(try await sync()))
                    }
                }
            } catch {
                // Only this call's own cancellation ends it (a sync it joined is never cancelled under it).
                if Task.isCancelled { return }
                let error = StickerClientError.from(error)
                logger.notice("following the catalog failed; trying again", metadata: ["error": "\(error)"])
                statusCell.set(.offline(error, since: Date()))
                onError(error)
                if case .unavailable(_, _, let after?) = error as? StickerClientError {
                    // Retry-After is a floor, not the wait: the backoff keeps growing under it, so a service that
                    // answers `503 Retry-After: 0` for good is not asked twice a second by every client.
                    wait = max(after, options.backoff.delay(after: failures + 1))
                }
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

/// When files a sync could not fetch are tried again: after a backoff that grows while they keep failing.
struct FileRetry {
    let backoff: Backoff
    private var rounds = 0
    private var at: ContinuousClock.Instant?

    init(backoff: Backoff) {
        self.backoff = backoff
    }

    /// Whether a retry is due.
    var due: Bool { at.map { ContinuousClock.now >= $0 } ?? false }

    /// Notes what `report` left unfetched; returns it.
    mutating func after(_ report: StickerSync.Report) -> StickerSync.Report {
        rounds = report.failedFiles.isEmpty ? 0 : rounds + 1
        at = rounds == 0 ? nil : .now + backoff.delay(after: rounds)
        return report
    }
}
