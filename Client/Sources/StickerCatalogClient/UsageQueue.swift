import Foundation

/// The usage events waiting to be sent, in `usage.json` in the synced folder: it survives a relaunch, holds at most
/// `bound` events (about 120 KiB at most; when full, the oldest go first), and is replaced as `catalog.json` is (a new
/// file flushed, one rename), so a crash leaves the old queue or the new one. An app and its extension share it, and
/// both record: every change reads the file again under `.usage.lock` (held for that read and write alone, never
/// across a request, as an app suspended holding a lock in an App Group container is killed), and a batch being sent
/// is claimed for a while, so two processes do not send it twice. A file this version cannot read (torn, another
/// layout, larger than a full queue can be) is discarded: usage counts are worth less than a working folder. Writes
/// come a few seconds apart at most (`UsageRecorder.writeEvery`), many events each.
actor UsageQueue {
    /// One event as kept.
    struct Event: Codable, Sendable, Equatable {
        /// Names the event in the queue, so a batch the service received removes exactly itself.
        var id: UInt64
        /// A sticker's id, a lowercase UUID (the service refuses a whole batch for anything else).
        var sticker: String
        var action: UsageAction
        var at: Date
        /// Until when the process sending it holds it; nil when none does.
        var claimed: Date?
    }

    private struct File: Codable {
        static let currentVersion = 1
        var version = File.currentVersion
        var events: [Event]
    }

    /// The most events kept: more than a user records between two sends (the service counts at most 600 a minute of
    /// one user), and a file small enough to rewrite at every change.
    static let bound = 1_000
    /// The largest file read: well above a full queue (about 120 bytes an event), well below a costly parse.
    static let largestFile = 512 << 10
    /// Events older than this the service ignores: they are dropped here.
    static let oldest: TimeInterval = 48 * 3600
    /// How long a batch claimed for sending stays claimed: a request ends well within it, and a process killed while
    /// sending leaves a claim that expires.
    static let claimFor: TimeInterval = 300
    static let name = "usage.json"

    let folder: URL
    private let lockWait: Duration
    private let sleep: @Sendable (Duration) async throws -> Void

    /// The queue in `folder`; its lock is waited for at most `lockWait`, on the sync's clock (`sleep`).
    init(folder: URL, lockWait: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        (self.folder, self.lockWait, self.sleep) = (folder, lockWait, sleep)
    }

    /// Adds `events`; when the queue is full, the oldest go.
    func append(_ events: [Event]) async throws {
        try await edit { $0 += events }
    }

    /// Claims the oldest `limit` events no process holds, for `claimFor`; none, without taking the lock, when there is
    /// none to claim.
    func claim(upTo limit: Int) async throws -> [Event] {
        let now = Date()
        guard events().contains(where: { Self.free($0, at: now) }) else { return [] }
        return try await edit { events in
            var claimed: [Event] = []
            for index in events.indices where claimed.count < limit && Self.free(events[index], at: now) {
                events[index].claimed = now + Self.claimFor
                claimed.append(events[index])
            }
            return claimed
        }
    }

    /// Removes the events of `ids`: received, or refused for good.
    func remove(_ ids: Set<UInt64>) async throws {
        try await edit { $0.removeAll { ids.contains($0.id) } }
    }

    /// Lets go of the events of `ids`, to be sent again.
    func release(_ ids: Set<UInt64>) async throws {
        try await edit { events in
            for index in events.indices where ids.contains(events[index].id) { events[index].claimed = nil }
        }
    }

    /// The events kept, oldest first, read without the lock (the file is replaced whole); none when the file is
    /// missing or cannot be read.
    nonisolated func events() -> [Event] {
        guard let handle = try? FileHandle(forReadingFrom: folder.appending(path: Self.name)) else { return [] }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.largestFile + 1), data.count <= Self.largestFile else {
            return []
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let file = try? decoder.decode(File.self, from: data), file.version == File.currentVersion else {
            return []
        }
        return file.events
    }

    /// Whether `event` may be claimed at `now`: held by no process, and recent enough to be counted.
    private static func free(_ event: Event, at now: Date) -> Bool {
        (event.claimed.map { $0 <= now } ?? true) && now.timeIntervalSince(event.at) < oldest
    }

    /// `change` applied to the events under the lock (`FolderLock.holding`: within an expiring activity), written
    /// when it changed them (or dropped some).
    private func edit<T: Sendable>(_ change: @escaping @Sendable (inout [Event]) -> T) async throws -> T {
        try await FolderLock.holding(folder, named: ".usage.lock", waitingAtMost: lockWait, sleep: sleep) {
            try await self.apply(change)
        }
    }

    /// Files written: what coalescing saves is counted here.
    private(set) var writes = 0

    /// `change` applied to the file's events; called with the lock held.
    private func apply<T>(_ change: (inout [Event]) -> T) throws -> T {
        let read = events()
        var events = Self.trimmed(read)
        let result = change(&events)
        events = Self.trimmed(events)
        if events != read { try write(events) }
        return result
    }

    /// `events` without those the service would ignore, oldest first, at most `bound` of them.
    static func trimmed(_ events: [Event], now: Date = Date()) -> [Event] {
        let fresh = events.filter { now.timeIntervalSince($0.at) < oldest }.sorted { $0.at < $1.at }
        return Array(fresh.suffix(bound))
    }

    /// Replaces the file with `events` (`LocalCatalog.replace`), its bytes written before the rename but without the
    /// drive's cache flushed (`F_FULLFSYNC`) for them: a power loss may take back the last few counts, which are worth
    /// less than the tens of milliseconds a full flush holds the lock for on a phone.
    private func write(_ events: [Event]) throws {
        let encoder = JSONEncoder()
        (encoder.dateEncodingStrategy, encoder.outputFormatting) = (.iso8601, [.sortedKeys])
        try LocalCatalog.replace(
            folder.path, Self.name, with: try encoder.encode(File(events: events)), durability: .ordered)
        writes += 1
    }
}
