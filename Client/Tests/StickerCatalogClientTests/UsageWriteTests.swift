import Foundation
import Testing

@testable import StickerCatalogClient

/// A grid scrolling records a `viewed` per cell from `onAppear`: the queue file is written a few seconds apart at most,
/// many events a write, each sticker seen counted once a session, every lock taken within an expiring activity, and
/// what waits in memory is written as the app goes to the background.
@Suite struct UsageWriteTests {
    /// A clock on which the recorder's minute never passes and its `writeEvery` waits until `gate` opens.
    static func held(_ gate: Gate) -> @Sendable (Duration) async throws -> Void {
        { duration in
            if duration == UsageRecorder.delay { try await Task.sleep(for: .seconds(3600)) }
            while duration == UsageRecorder.writeEvery, !gate.isOpen { try await Task.sleep(for: .milliseconds(2)) }
            try await FakeClock().sleep(duration)
        }
    }

    @Test("350 calls while scrolling: nothing written before writeEvery, then one write; views counted once")
    func coalescedAndDeduplicated() async throws {
        // Setup
        let (folder, gate) = (StickerSync.temporaryFolder(), Gate())
        let sync = Usage.sync(UsageService(), folder: folder, sleep: Self.held(gate))
        let (seen, sent) = (Usage.stickers(200), Usage.stickers(50))
        // Action: every sticker seen, half of them seen again on the way back, and 50 sends.
        for sticker in seen + seen.prefix(100) { sync.record(.viewed, sticker: sticker) }
        for sticker in sent { sync.record(.sent, sticker: sticker) }
        try await Task.sleep(for: .milliseconds(100))
        // Check: nothing written while the interval runs.
        #expect(await sync.usage.queue.writes == 0 && Usage.queue(folder).events().isEmpty)
        gate.open()
        #expect(await Usage.eventually { Usage.queue(folder).events().count == 250 })
        let events = Usage.queue(folder).events()
        #expect(events.filter { $0.action == .viewed }.map(\.sticker).sorted() == seen.sorted())
        #expect(await sync.usage.queue.writes == 1)
        withExtendedLifetime(sync) {}
    }

    @Test("Back in the foreground, a sticker seen before counts again; going to the background writes at once")
    func sessions() async throws {
        // Setup: the lifecycle notifications of a test app.
        let (foreground, background) = (Notification.Name("test-foreground-\(UUID())"), Notification.Name("test-bg"))
        let folder = StickerSync.temporaryFolder()
        let sync = Usage.sync(UsageService(), folder: folder, sleep: Self.held(Gate())) {
            ($0.foregroundNotifications, $0.backgroundNotifications) = ([foreground], [background])
        }
        let sticker = Usage.stickers(1)[0]
        sync.record(.viewed, sticker: sticker)
        sync.record(.viewed, sticker: sticker)
        // Action: the app goes to the background (writeEvery never passes on this clock).
        NotificationCenter.default.post(name: background, object: nil)
        // Check
        #expect(await Usage.eventually { Usage.queue(folder).events().count == 1 })
        // Action: it comes back and the sticker is seen again.
        NotificationCenter.default.post(name: foreground, object: nil)
        #expect(await Usage.eventually { sync.usage.viewedCount == 0 })
        sync.record(.viewed, sticker: sticker)
        NotificationCenter.default.post(name: background, object: nil)
        // Check
        #expect(await Usage.eventually { Usage.queue(folder).events().count == 2 })
        withExtendedLifetime(sync) {}
    }

    @Test("A folder's lock is only ever held within an expiring activity")
    func lockWithinActivity() async throws {
        // Setup
        let folder = StickerSync.temporaryFolder()
        #expect(BackgroundActivity.isActive == false)
        // Action
        let inside = try await FolderLock.holding(folder, waitingAtMost: .seconds(1), sleep: { _ in }) {
            BackgroundActivity.isActive
        }
        // Check
        #expect(inside)
    }
}
