import Foundation
import Testing

@testable import StickerCatalogClient

/// The usage queue file: bounded, oldest dropped first, kept across a relaunch, discarded when unreadable, and shared
/// by two processes without either sending the other's batch.
@Suite struct UsageQueueTests {
    /// `count` events a second apart, the last a minute ago, numbered from `first`.
    static func events(_ count: Int, first: UInt64 = 1, action: UsageAction = .sent) -> [UsageQueue.Event] {
        let start = Date() - 60 - Double(count)
        return (0..<count).map { index in
            UsageQueue.Event(
                id: first + UInt64(index), sticker: UUID().uuidString.lowercased(), action: action,
                at: start + Double(index))
        }
    }

    @Test("The queue keeps at most 1,000 events, the oldest dropped first, in a file under 128 KiB")
    func bound() async throws {
        // Setup
        let folder = StickerSync.temporaryFolder()
        let queue = Usage.queue(folder)
        let all = Self.events(1_200)
        // Action: three appends of 400, the last two past the bound.
        for start in stride(from: 0, to: 1_200, by: 400) { try await queue.append(Array(all[start..<start + 400])) }
        // Check: the newest 1,000, in order.
        let kept = queue.events()
        #expect(kept.count == UsageQueue.bound)
        #expect(kept.map(\.id) == Array(201...1_200))
        let bytes = try Data(contentsOf: folder.appending(path: UsageQueue.name)).count
        #expect(bytes < 128 << 10, "\(bytes) bytes for a full queue")
    }

    @Test("record() past the bound keeps the newest 1,000 events")
    func boundThroughRecord() async throws {
        // Setup: a sync that sends nothing (no sync, the minute never passes).
        let folder = StickerSync.temporaryFolder()
        let sync = Usage.sync(UsageService(), folder: folder, sleep: Usage.noTimer(FakeClock()))
        let stickers = Usage.stickers(1_500)
        // Action
        for sticker in stickers { sync.record(.viewed, sticker: sticker) }
        // Check
        let queue = Usage.queue(folder)
        #expect(await Usage.eventually { queue.events().map(\.sticker) == Array(stickers.suffix(1_000)) })
    }

    @Test("Events kept survive a new queue on the same folder, as after a relaunch")
    func reopened() async throws {
        // Setup
        let folder = StickerSync.temporaryFolder()
        let events = Self.events(3)
        try await Usage.queue(folder).append(events)
        // Action
        let kept = Usage.queue(folder).events()
        // Check: all of them, to the second (the file keeps RFC 3339 seconds).
        #expect(kept.map(\.id) == events.map(\.id) && kept.map(\.sticker) == events.map(\.sticker))
        #expect(kept.map(\.action) == events.map(\.action))
        #expect(zip(kept, events).allSatisfy { abs($0.at.timeIntervalSince($1.at)) < 1 })
    }

    @Test(
        "An unreadable queue file is discarded and replaced, never fatal",
        arguments: [
            Data("not json at all".utf8), Data(#"{"version":99,"events":[]}"#.utf8),
            Data(#"{"version":1,"events":[{"id":1,"sticker":"#.utf8), Data(repeating: 0x20, count: 600 << 10),
        ])
    func corrupt(contents: Data) async throws {
        // Setup
        let folder = StickerSync.temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try contents.write(to: folder.appending(path: UsageQueue.name))
        let queue = Usage.queue(folder)
        // Action
        let before = queue.events()
        try await queue.append(Self.events(1))
        // Check
        #expect(before.isEmpty)
        #expect(queue.events().count == 1 && Usage.queue(folder).events().count == 1)
    }

    @Test("A batch one process claimed is not claimed by another until it is let go")
    func claims() async throws {
        // Setup: two queues on one folder, as an app and its extension have.
        let folder = StickerSync.temporaryFolder()
        let (app, extensionQueue) = (Usage.queue(folder), Usage.queue(folder))
        try await app.append(Self.events(150))
        // Action
        let first = try await app.claim(upTo: 100)
        let second = try await extensionQueue.claim(upTo: 100)
        let none = try await extensionQueue.claim(upTo: 100)
        try await app.release(Set(first.map(\.id)))
        let again = try await extensionQueue.claim(upTo: 100)
        // Check
        #expect(first.map(\.id) == Array(1...100) && second.map(\.id) == Array(101...150) && none.isEmpty)
        #expect(again.map(\.id) == first.map(\.id))
    }

    @Test("Events over 48 hours old are dropped, never claimed for sending")
    func stale() async throws {
        // Setup: a file holding an event of 49 hours ago and one of an hour ago, as a queue left for two days has.
        let folder = StickerSync.temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let old = UsageQueue.Event(id: 1, sticker: UUID().uuidString, action: .sent, at: Date() - 49 * 3600)
        let fresh = UsageQueue.Event(id: 2, sticker: UUID().uuidString, action: .sent, at: Date() - 3600)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let file = #"{"version":1,"events":\#(String(decoding: try encoder.encode([old, fresh]), as: UTF8.self))}"#
        try Data(file.utf8).write(to: folder.appending(path: UsageQueue.name))
        let queue = Usage.queue(folder)
        #expect(queue.events().count == 2)
        // Action
        let claimed = try await queue.claim(upTo: 100)
        // Check
        #expect(claimed.map(\.id) == [2] && queue.events().map(\.id) == [2])
    }
}
