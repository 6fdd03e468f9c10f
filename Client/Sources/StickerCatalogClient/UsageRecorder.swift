import Foundation
import Logging

/// Usage events on their way from `StickerSync.record` to the service. Recording appends to memory under a lock held
/// for that alone, so the caller (the main actor, a grid's `onAppear`) never waits for the disk or the network; a
/// writer task moves what was recorded into the queue file, many events to a write. A sender task sends the queue in
/// batches, a minute after an event is recorded or at once after a sync succeeds (`UsageRecorder+Sending`).
final class UsageRecorder: @unchecked Sendable {
    typealias Send = @Sendable ([UsageQueue.Event]) async throws -> Void
    /// How long a recorded event waits for a sync before it is sent anyway.
    static let delay: Duration = .seconds(60)
    /// The most events in one request, as the service takes them.
    static let batch = 100

    let queue: UsageQueue
    let enabled: Bool
    let backoff: Backoff
    let sleep: @Sendable (Duration) async throws -> Void
    let send: Send
    let logger: Logger
    let lock = NSLock()
    /// Recorded, not yet in the file: at most `UsageQueue.bound`, the oldest dropped first, as in the file.
    private var unwritten: [UsageQueue.Event] = []
    private var writer: Task<Void, Never>?
    /// The sender, and whether it still waits out `delay` (a sync replaces it with one sending at once) rather than
    /// sending or waiting after a failure.
    var sender: (id: UUID, task: Task<Void, Never>, timer: Bool)?
    /// Whether an event was recorded since the sender last had the recorded events written: a sender that ends then
    /// starts again, so none waits for the next sync alone.
    var recordedSinceFlush = false

    init(
        queue: UsageQueue, enabled: Bool, backoff: Backoff, sleep: @escaping @Sendable (Duration) async throws -> Void,
        logger: Logger, send: @escaping Send
    ) {
        (self.queue, self.enabled, self.backoff, self.sleep) = (queue, enabled, backoff, sleep)
        (self.logger, self.send) = (logger, send)
    }

    /// Keeps `action` on `sticker` for sending; nothing when recording is off, or for an id that is not a UUID (the
    /// service would refuse the whole batch holding it).
    func record(_ action: UsageAction, sticker: String) {
        guard enabled, let uuid = UUID(uuidString: sticker) else { return }
        // Random within 2^53: exact in any JSON reader.
        let event = UsageQueue.Event(
            id: .random(in: 1...(1 << 53)), sticker: uuid.uuidString.lowercased(), action: action, at: Date())
        lock.withLock {
            unwritten.append(event)
            if unwritten.count > UsageQueue.bound { unwritten.removeFirst(unwritten.count - UsageQueue.bound) }
            recordedSinceFlush = true
            _ = startWriter()
            if sender == nil { startSender(after: Self.delay) }
        }
    }

    /// A sync succeeded, so the service is there: what waits goes now, unless the sender is sending or waiting after
    /// a failure (a sync does not cut a backoff short).
    func syncSucceeded() {
        guard enabled else { return }
        lock.withLock {
            if let sender, !sender.timer { return }
            sender?.task.cancel()
            startSender(after: nil)
        }
    }

    /// Stops sending (the sync is gone); what was recorded is still written.
    func stop() {
        lock.withLock {
            sender?.task.cancel()
            sender = nil
        }
    }

    /// The writer, started when events wait and none runs; nil when nothing is to be written. Called with `lock` held.
    func startWriter() -> Task<Void, Never>? {
        if writer == nil, !unwritten.isEmpty {
            writer = Task.detached(priority: .utility) { await self.write() }
        }
        return writer
    }

    /// Moves what was recorded into the file until nothing more is. On a failure (a full disk, the lock held past
    /// `lockWait` by another process) the events stay in memory for the next try.
    private func write() async {
        while true {
            let events = lock.withLock { () -> [UsageQueue.Event] in
                let taken = unwritten
                unwritten = []
                if taken.isEmpty { writer = nil }
                return taken
            }
            guard !events.isEmpty else { return }
            do {
                try await queue.append(events)
            } catch {
                logger.notice("usage events could not be kept; trying again later", metadata: ["error": "\(Redaction.describe(error))"])
                lock.withLock {
                    unwritten = Array((events + unwritten).suffix(UsageQueue.bound))
                    (writer, recordedSinceFlush) = (nil, true)
                }
                return
            }
        }
    }
}
