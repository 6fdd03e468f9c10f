import Foundation
import Logging

/// Usage events on their way from `StickerSync.record` to the service. Recording appends to memory under a lock held
/// for that alone, so the caller (the main actor, a grid's `onAppear`) never waits for the disk or the network; a
/// writer task moves what was recorded into the queue file `writeEvery` later, many events to a write, so a grid
/// scrolling for a minute costs a dozen writes rather than one per cell. A sticker seen again in the same session (the
/// app's time in the foreground) is not counted again. A sender task sends the queue in batches, a minute after an
/// event is recorded or at once after a sync succeeds (`UsageRecorder+Sending`).
final class UsageRecorder: @unchecked Sendable {
    typealias Send = @Sendable ([UsageQueue.Event]) async throws -> Void
    /// How long a recorded event waits for a sync before it is sent anyway.
    static let delay: Duration = .seconds(60)
    /// How long recorded events wait in memory before they are written, so writes come at most this often.
    static let writeEvery: Duration = .seconds(5)
    /// The most events in one request, as the service takes them.
    static let batch = 100
    /// The most stickers remembered as seen this session; past it the memory starts again (a view may count twice).
    static let viewedBound = 10_000

    let queue: UsageQueue
    let enabled: Bool
    let backoff: Backoff
    let sleep: @Sendable (Duration) async throws -> Void
    let send: Send
    let logger: Logger
    let lock = NSLock()
    /// Recorded, not yet in the file: at most `UsageQueue.bound`, the oldest dropped first, as in the file.
    private var unwritten: [UsageQueue.Event] = []
    /// The writer waiting out `writeEvery`, or writing.
    private var writer: Task<Void, Never>?
    /// The last write asked for: the next waits for it, so writes never overlap.
    private var lastWrite: Task<Void, Never>?
    /// Stickers seen (`viewed`) this session: seen again, they are not recorded.
    private var viewed = Set<String>()
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

    /// Keeps `action` on `sticker` for sending; nothing when recording is off, for an id that is not a UUID (the
    /// service would refuse the whole batch holding it), or for a sticker seen again this session.
    func record(_ action: UsageAction, sticker: String) {
        guard enabled, let uuid = UUID(uuidString: sticker) else { return }
        let id = uuid.uuidString.lowercased()
        // Random within 2^53: exact in any JSON reader.
        let event = UsageQueue.Event(id: .random(in: 1...(1 << 53)), sticker: id, action: action, at: Date())
        lock.withLock {
            if action == .viewed {
                if viewed.count >= Self.viewedBound { viewed.removeAll() }
                guard viewed.insert(id).inserted else { return }
            }
            unwritten.append(event)
            if unwritten.count > UsageQueue.bound { unwritten.removeFirst(unwritten.count - UsageQueue.bound) }
            recordedSinceFlush = true
            if writer == nil { writer = Task.detached(priority: .utility) { await self.writeLater() } }
            if sender == nil { startSender(after: Self.delay) }
        }
    }

    /// Stickers remembered as seen this session.
    var viewedCount: Int { lock.withLock { viewed.count } }

    /// A new session (the app came back to the foreground): stickers seen before count once more.
    func newSession() {
        lock.withLock { viewed.removeAll() }
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

    /// Waits out `writeEvery`, writes what was recorded by then, and again while more comes.
    private func writeLater() async {
        while true {
            // Cancelled or not, what was recorded is written.
            try? await sleep(Self.writeEvery)
            await write()
            let done = lock.withLock { () -> Bool in
                if unwritten.isEmpty { writer = nil }
                return unwritten.isEmpty
            }
            if done { return }
        }
    }

    /// Moves what was recorded into the file now (the app goes to the background, or the sender is about to read the
    /// file), after any write under way: returns once everything recorded before the call is in the file, or failed
    /// to be written.
    func write() async {
        let next = lock.withLock { () -> Task<Void, Never> in
            let previous = lastWrite
            let next = Task {
                await previous?.value
                await self.writeRecorded()
            }
            lastWrite = next
            return next
        }
        await next.value
    }

    /// Writes what is recorded; one at a time (`write`). On a failure (a full disk, the lock held past `lockWait` by
    /// another process) the events stay in memory for the next try.
    private func writeRecorded() async {
        let events = lock.withLock { () -> [UsageQueue.Event] in
            defer { unwritten = [] }
            return unwritten
        }
        guard !events.isEmpty else { return }
        do {
            try await queue.append(events)
        } catch {
            logger.notice(
                "usage events could not be kept; trying again later",
                metadata: ["error": "\(Redaction.describe(error))"])
            lock.withLock {
                unwritten = Array((events + unwritten).suffix(UsageQueue.bound))
                recordedSinceFlush = true
            }
        }
    }
}
