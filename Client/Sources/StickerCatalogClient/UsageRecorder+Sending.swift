import Foundation

extension UsageRecorder {
    /// Starts a sender, waiting `delay` first when given. Called with `lock` held (the task looks itself up under it,
    /// so it cannot run before it is stored).
    func startSender(after delay: Duration?) {
        let id = UUID()
        let task = Task.detached(priority: .utility) { await self.run(id, after: delay) }
        sender = (id, task, delay != nil)
    }

    /// Waits out `delay`, then sends batches until none is left to claim. After a failure it waits the client's
    /// backoff (capped, exponential, full jitter), or the service's `Retry-After` when longer, and tries again:
    /// events are never dropped for a failure, only for a refusal (`UsageDelivery`), their age or the bound.
    private func run(_ id: UUID, after delay: Duration?) async {
        if let delay {
            // Cancelled: a sync's sender replaced this one, or the sync is gone.
            do { try await sleep(delay) } catch { return }
        }
        let current = lock.withLock { () -> Bool in
            guard sender?.id == id else { return false }
            sender?.timer = false
            return true
        }
        guard current else { return }
        var failures = 0
        while !Task.isCancelled {
            await flush()
            let batch: [UsageQueue.Event]
            do {
                batch = try await queue.claim(upTo: Self.batch)
            } catch {
                logger.notice(
                    "the usage queue could not be read; trying later",
                    metadata: ["error": "\(Redaction.describe(error))"])
                break
            }
            guard !batch.isEmpty else { break }
            switch await deliver(batch) {
            case .delivered, .refused: failures = 0
            case .failed(let retryAfter):
                failures += 1
                // Retry-After is a floor under the backoff, as in `follow()`: `Retry-After: 0` is no busy loop.
                do { try await sleep(max(retryAfter ?? .zero, backoff.delay(after: failures))) } catch { return }
            case .stopped: return
            }
        }
        finish(id)
    }

    /// Writes what was recorded so far into the file, or fails to.
    private func flush() async {
        lock.withLock { recordedSinceFlush = false }
        await write()
    }

    /// Sends `batch`, then removes it from the queue or lets go of it, by how that ended.
    private func deliver(_ batch: [UsageQueue.Event]) async -> UsageDelivery {
        let delivery: UsageDelivery
        do {
            try await send(batch)
            delivery = .delivered
        } catch {
            delivery = UsageDelivery(error)
            if delivery != .stopped {
                logger.notice(
                    "usage events not sent",
                    metadata: ["events": "\(batch.count)", "error": "\(Redaction.describe(error))"])
            }
        }
        let ids = Set(batch.map(\.id))
        do {
            switch delivery {
            case .delivered, .refused: try await queue.remove(ids)
            case .failed, .stopped: try await queue.release(ids)
            }
        } catch {
            // Their claim expires: sent again later (a batch received is then counted twice, rarely).
            logger.notice("the usage queue could not be updated", metadata: ["error": "\(Redaction.describe(error))"])
        }
        return delivery
    }

    /// The sender is done; when an event was recorded since it last looked, another is started, to send it after
    /// `delay`.
    private func finish(_ id: UUID) {
        lock.withLock {
            guard sender?.id == id else { return }
            sender = nil
            if recordedSinceFlush { startSender(after: Self.delay) }
        }
    }
}
