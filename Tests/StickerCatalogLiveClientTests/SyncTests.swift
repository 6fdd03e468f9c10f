import Crypto
import Foundation
import StickerCatalogClient
import Testing

/// The client package against a live stickerd over real HTTP, into real folders.
// A time limit per test: one full-suite run was seen to stall in here (once, not reproduced); a limit names the test.
@Suite(.serialized, .hangLimit) struct SyncTests {
    static let shared = Task { try await LiveService() }

    static func folder() -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "sticker-sync-\(UUID().uuidString)")
    }

    /// A sync of a new folder (or `folder`) against `base`.
    static func syncing(
        _ base: URL, folder: URL = folder(), view: CatalogView = CatalogView(), token: String? = nil,
        _ configure: (inout SyncOptions) -> Void = { _ in }
    ) -> StickerSync {
        var options = SyncOptions()
        configure(&options)
        return StickerSync(
            service: base, folder: LocalCatalog(directory: folder), view: view,
            credentials: token.map(Credentials.token), options: options)
    }

    /// The local catalog's groups as JSON objects, to compare with the service's manifest.
    static func groups(_ manifest: Manifest?) throws -> [[String: Any]] {
        let data = try JSONEncoder().encode(manifest?.groups ?? [])
        return (try JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
    }

    /// Whether the local catalog shows what the service shows (ids, names, descriptions, order, locks, assets).
    static func same(_ local: Manifest?, _ served: [String: Any]) throws -> Bool {
        func summary(_ groups: [[String: Any]]) -> [String] {
            groups.map { group in
                let stickers = (group["stickers"] as? [[String: Any]] ?? []).map {
                    "\($0["id"] ?? "")/\($0["description"] ?? "")/\(($0["asset"] as? [String: Any])?["sha256"] ?? "")"
                }
                return
                    "\(group["id"] ?? "") \(group["name"] ?? "") locked=\(group["locked"] ?? "") [\(stickers.joined(separator: ","))]"
            }
        }
        return summary(try groups(local)) == summary(served["groups"] as? [[String: Any]] ?? [])
    }

    /// Every file the local catalog names is on disk with its digest.
    static func filesVerify(_ catalog: LocalCatalog) throws -> Bool {
        guard let manifest = catalog.load()?.manifest else { return false }
        return try manifest.assets.values.allSatisfy { asset in
            let data = try Data(contentsOf: catalog.fileURL(for: asset))
            return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() == asset.sha256
                && data.count == asset.bytes
        }
    }

    @Test func theFirstSyncKeepsEveryFileCheckedAndTheNextMovesNothing() async throws {
        // Setup
        let service = try await Self.shared.value
        let sync = Self.syncing(service.base, view: CatalogView(size: .small, scale: .x2))
        // Action
        let first = try await sync.sync()
        let second = try await sync.sync()
        // Check
        #expect(!first.incremental && first.filesDownloaded > 0 && first.bytesDownloaded > 0)
        #expect(try Self.same(sync.folder.load()?.manifest, try await service.manifest("size=small&scale=2")))
        #expect(try Self.filesVerify(sync.folder))
        #expect(second.incremental && !second.changed && second.filesDownloaded == 0)
    }

    @Test func aWebPViewKeepsWebPFilesUnderTheirOwnExtension() async throws {
        // Setup
        let service = try await Self.shared.value
        let sync = Self.syncing(service.base, view: CatalogView(size: .small, scale: .x2, format: .webp))
        // Action
        _ = try await sync.sync()
        // Check: the catalog as the webp view serves it, every file a checked WebP named <sha256>.webp, none .png.
        #expect(
            try Self.same(sync.folder.load()?.manifest, try await service.manifest("size=small&scale=2&format=webp")))
        #expect(try Self.filesVerify(sync.folder))
        let files = try FileManager.default.contentsOfDirectory(
            atPath: sync.folder.directory.appending(path: "files").path)
        #expect(!files.isEmpty && files.allSatisfy { $0.hasSuffix(".webp") }, "\(files)")
        let first = try Data(contentsOf: sync.folder.directory.appending(path: "files/\(files[0])"))
        #expect(first.prefix(4) == Data("RIFF".utf8) && first.dropFirst(8).prefix(4) == Data("WEBP".utf8))
    }

    @Test func syncsFollowAnUploadADeleteAReorderAndALocaleChange() async throws {
        // Setup
        let service = try await Self.shared.value
        let folder = Self.folder()
        let sync = Self.syncing(service.base, folder: folder)
        _ = try await sync.sync()
        let before = try #require(sync.folder.load()?.manifest)
        let original = try #require(before.groups.first { $0.id == "chocolate" }?.stickers.first)
        let (_, bytes) = try await service.request("GET", original.asset.url)
        // Action: an upload into crunchy (the chocolate picture, at its uploaded size).
        try await service.admin(
            "POST", "groups/crunchy/stickers?name=Again&description=Uploaded%20again", body: bytes,
            contentType: "image/png")
        let uploaded = try await sync.sync()
        // Check
        #expect(uploaded.incremental && uploaded.changedGroups == ["crunchy"])
        #expect(try Self.same(sync.folder.load()?.manifest, try await service.manifest()))
        // Action: a delete, then a reorder.
        let victim = try #require(sync.folder.load()?.manifest.groups.first { $0.id == "crunchy" }?.stickers.last)
        try await service.admin("DELETE", "stickers/\(victim.id)")
        let deleted = try await sync.sync()
        try await service.admin("PATCH", "groups/crunchy", json: ["position": 0])
        let reordered = try await sync.sync()
        // Check
        #expect(deleted.incremental && deleted.changedGroups == ["crunchy"])
        #expect(reordered.incremental)
        #expect(sync.folder.load()?.manifest.groups.first?.id == "crunchy")
        #expect(try Self.same(sync.folder.load()?.manifest, try await service.manifest()))
        // Action: the same folder in French.
        let french = Self.syncing(service.base, folder: folder, view: CatalogView(locale: Locale(identifier: "fr")))
        let relocalised = try await french.sync()
        // Check: a whole manifest (another view), the French one.
        #expect(!relocalised.incremental)
        #expect(try Self.same(french.folder.load()?.manifest, try await service.manifest("locale=fr")))
        #expect(try Self.filesVerify(french.folder))
    }

    @Test func aPurchaseUnlocksAGroupAndARefundLocksItAgain() async throws {
        // Setup: chocolate is premium; mia is signed in.
        let service = try await Self.shared.value
        try await service.admin("PATCH", "groups/chocolate", json: ["productId": LiveService.product])
        defer { Task { try? await service.admin("PATCH", "groups/chocolate", json: ["productId": NSNull()]) } }
        let token = LiveService.userToken("mia")
        let sync = Self.syncing(service.base, token: token)
        _ = try await sync.sync()
        #expect(sync.folder.load()?.manifest.groups.first { $0.id == "chocolate" }?.locked == true)
        // Action
        #expect(try await service.purchaseEvent("purchase", user: "mia", transaction: "t-mia-1") == 200)
        let unlocked = try await sync.sync()
        // Check: its stickers synced through signed URLs, the files kept and checked.
        let chocolate = try #require(sync.folder.load()?.manifest.groups.first { $0.id == "chocolate" })
        #expect(unlocked.incremental && unlocked.changedGroups == ["chocolate"])
        #expect(
            !chocolate.locked && !chocolate.stickers.isEmpty
                && chocolate.stickers.allSatisfy { $0.asset.url.contains("sig=") })
        #expect(try Self.filesVerify(sync.folder))
        // Action
        #expect(try await service.purchaseEvent("refund", user: "mia", transaction: "t-mia-1") == 200)
        _ = try await sync.sync()
        // Check
        #expect(
            sync.folder.load()?.manifest.groups.first { $0.id == "chocolate" }.map { $0.locked && $0.stickers.isEmpty }
                == true)
        #expect(try Self.same(sync.folder.load()?.manifest, try await service.manifest(token: token)))
    }

    @Test func anExpiredCursorStartsOverFromTheManifest() async throws {
        // Setup
        let service = try await Self.shared.value
        let sync = Self.syncing(service.base, view: CatalogView(filter: "chocoholic"))
        _ = try await sync.sync()
        // Action: the filter redefined: the change feed answers 410 for this view.
        try await service.admin(
            "PUT", "filters/chocoholic", json: ["title": "Chocoholic", "flags": ["chocolate", "sweet"]])
        defer {
            Task {
                try? await service.admin(
                    "PUT", "filters/chocoholic", json: ["title": "Chocoholic", "flags": ["chocolate"]])
            }
        }
        let report = try await sync.sync()
        // Check
        #expect(!report.incremental)
        #expect(try Self.same(sync.folder.load()?.manifest, try await service.manifest("filter=chocoholic")))
    }

    @Test func filesNoLongerNamedGoOnlyAfterTheGracePeriod() async throws {
        // Setup: two folders, one keeping old files for a day, one for no time at all.
        let service = try await Self.shared.value
        let keeping = Self.syncing(service.base, view: CatalogView(size: .medium, scale: .x1))
        let purging = Self.syncing(service.base, view: CatalogView(size: .medium, scale: .x1)) { $0.purgeGrace = 0 }
        _ = try await keeping.sync()
        _ = try await purging.sync()
        let victim = try #require(keeping.folder.load()?.manifest.groups.last?.stickers.first)
        // Action
        try await service.admin("DELETE", "stickers/\(victim.id)")
        let kept = try await keeping.sync()
        let purged = try await purging.sync()
        // Check: the day-long folder keeps the file; the other removes it, and every file still named is there.
        #expect(
            kept.filesRemoved == 0
                && FileManager.default.fileExists(atPath: keeping.folder.fileURL(for: victim.asset).path))
        #expect(
            purged.filesRemoved >= 1
                && !FileManager.default.fileExists(atPath: purging.folder.fileURL(for: victim.asset).path))
        #expect(try Self.filesVerify(purging.folder))
    }

    @Test func a503WithRetryAfterIsWaitedOutForTheManifestAndForAFile() async throws {
        // Setup: a service that is busy once for the manifest and once for the file.
        let bytes = Data("not really a png".utf8)
        let sha = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        let link: [String: Any] = [
            "url": "/v1/assets/\(sha).png", "width": 1, "height": 1, "bytes": bytes.count, "sha256": sha,
            "animated": false,
        ]
        let sticker: [String: Any] = [
            "id": "s1", "name": "S", "description": "d", "flags": [], "keywords": [], "emoji": [], "animated": false,
            "frames": 1, "durationMs": 0, "loops": 0, "asset": link, "thumbnail": link,
        ]
        let group: [String: Any] = [
            "id": "g", "name": "G", "sizeClass": "small", "flags": [], "position": 0, "locked": false,
            "productId": NSNull(), "cover": link, "stickers": [sticker],
        ]
        let manifest = try JSONSerialization.data(withJSONObject: [
            "revision": 1, "cursor": "c", "filter": NSNull(), "flags": [], "scale": 1,
            "format": NSNull(), "locale": NSNull(), "groups": [group],
        ])
        let busy = FakeService.Answer(status: 503, headers: ["Retry-After": "1"])
        let fake = try FakeService([
            "/v1/manifest": [busy, .init(status: 200, headers: ["Content-Type": "application/json"], body: manifest)],
            "/v1/assets/\(sha).png": [busy, .init(status: 200, body: bytes)],
        ])
        let sync = Self.syncing(fake.base)
        // Action
        let report = try await sync.sync()
        // Check: each asked twice, a second apart; the file kept.
        let times = fake.requests.map(\.at)
        #expect(report.filesDownloaded == 1 && fake.requests.count == 4)
        #expect(times[1].timeIntervalSince(times[0]) >= 0.9 && times[3].timeIntervalSince(times[2]) >= 0.9)
        #expect(try Self.filesVerify(sync.folder))
    }

    @Test func followingTheEventStreamSyncsEachChangeAsItHappens() async throws {
        // Setup
        let service = try await Self.shared.value
        let sync = Self.syncing(service.base, view: CatalogView(size: .small))
        let reports = Reports()
        let following = Task { await sync.follow(onSync: { reports.append($0) }) }
        defer { following.cancel() }
        #expect(try await reports.wait { !$0.isEmpty })
        let sticker = try #require(sync.folder.load()?.manifest.groups.first?.stickers.first)
        // Action
        try await service.admin("PATCH", "stickers/\(sticker.id)", json: ["description": "Heard live"])
        // Check: a sync followed within seconds, bringing the change.
        #expect(try await reports.wait { $0.contains { $0.incremental && $0.changed } })
        #expect(
            sync.folder.load()?.manifest.groups.flatMap(\.stickers).first { $0.id == sticker.id }?.description
                == "Heard live")
    }

    @Test func aServiceThatIsDownLeavesTheCatalogReadableAndTheNextSyncCatchesUp() async throws {
        // Setup: a service of its own, synced once, then stopped.
        let service = try await LiveService()
        let sync = Self.syncing(service.base) { $0.attempts = 2 }
        _ = try await sync.sync()
        let before = sync.folder.load()?.manifest
        await service.stop()
        // Action
        let failure = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: unreachable because nothing listens (offline, not a timeout), and the last catalog still there. A
        // kept-alive connection the stopped service closed may answer first (connection lost): nothing listens either.
        switch failure {
        case .unreachable(_, .offline), .unreachable(_, .connectionLost): break
        default: Issue.record("expected unreachable offline, got \(String(describing: failure))")
        }
        #expect(sync.folder.load()?.manifest == before)
        // Action: back, with a change made meanwhile.
        try await service.start()
        let victim = try #require(before?.groups.first?.stickers.first)
        try await service.admin("DELETE", "stickers/\(victim.id)")
        let report = try await sync.sync()
        // Check
        #expect(report.incremental && report.changed)
        #expect(try Self.same(sync.folder.load()?.manifest, try await service.manifest()))
    }
}

/// Counts calls per key, from any task.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func next(_ key: String) -> Int {
        lock.withLock {
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }

    var total: Int { lock.withLock { counts.values.reduce(0, +) } }
}

/// Sync reports heard from a following task.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [StickerSync.Report] = []

    func append(_ report: StickerSync.Report) { lock.withLock { list.append(report) } }

    /// Waits up to 2 minutes for `condition` to hold of the reports heard (a first sync with its downloads, in a busy
    /// suite, can take most of one).
    func wait(_ condition: ([StickerSync.Report]) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if lock.withLock({ condition(list) }) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
