import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// What an app developer expects of the API: identifiable rows, comparable statuses, errors an app can show and act on.
@Suite struct APITests {
    /// Every case of `StickerClientError`, with the variants that read differently.
    static let everyError: [StickerClientError] = [
        .refused(status: 404, code: "not_found", detail: "no such group"),
        .corrupt(sha256: String(repeating: "a", count: 64)),
        .unreachable("GET /v1/manifest", reason: .offline), .unreachable("x", reason: .timedOut),
        .unreachable("x", reason: .tls), .unreachable("x", reason: .connectionLost),
        .unavailable(status: 503, code: nil, retryAfter: .seconds(300)),
        .unavailable(status: 429, code: nil, retryAfter: nil),
        .invalidAnswer("a page older than the catalog"), .notSynced, .storage("writing", errno: .ENOSPC),
        .storage("writing", errno: .EACCES), .storage("no container", errno: nil),
        .credentialsUnavailable(underlying: UnderlyingError(CocoaError(.userCancelled))),
        .timedOut(after: .seconds(60)),
        .busy,
    ]

    /// The keys of `Localizable.xcstrings`, read from the package's sources.
    static func catalogKeys() throws -> Set<String> {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
            path: "../../Sources/StickerCatalogClient/Resources/Localizable.xcstrings")
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        return Set((catalog?["strings"] as? [String: Any] ?? [:]).keys)
    }

    /// Keys looked up, as `Localized.observer` hears them.
    final class Keys: @unchecked Sendable {
        private let lock = NSLock()
        private var seen = Set<String>()
        var all: Set<String> { lock.withLock { seen } }
        func add(_ key: String) { _ = lock.withLock { seen.insert(key) } }
    }

    @Test("Every error says what happened and what to do, in text from the string catalog; the detail stays apart")
    func errorsAreShowable() throws {
        // Setup
        let keys = Keys()
        // Action
        let texts = Localized.$observer.withValue({ keys.add($0) }) {
            Self.everyError.map { ($0, $0.errorDescription ?? "", $0.recoverySuggestion ?? "") }
        }
        // Check: each has both; every key used is in the catalog and every catalog entry is used.
        for (error, description, suggestion) in texts {
            #expect(!description.isEmpty && !suggestion.isEmpty, "\(error)")
            #expect(error.failureReason?.isEmpty == false, "\(error)")
        }
        let catalog = try Self.catalogKeys()
        #expect(keys.all == catalog, "\(keys.all.symmetricDifference(catalog))")
        #expect(
            StickerClientError.unavailable(status: 503, code: nil, retryAfter: .seconds(300)).recoverySuggestion
                == "Try again in 5 minutes.")
        #expect(StickerClientError.storage("writing", errno: .ENOSPC).errorDescription?.contains("space") == true)
        #expect(
            StickerClientError.refused(status: 404, code: "not_found", detail: nil).failureReason?.contains("404")
                == true)
    }

    @Test("Groups, stickers and search results are Identifiable by their ids; statuses compare by what they say")
    func identifiableAndEquatable() async throws {
        // Setup
        let sync = StickerSync.testing(MemoryService())
        _ = try await sync.sync()
        let groups = try #require((await sync.snapshot)?.groups)
        // Action
        func ids<Item: Identifiable>(_ items: [Item]) -> [Item.ID] { items.map(\.id) }
        // Check
        #expect(ids(groups) == ["g"] && ids(groups[0].stickers) == ["s0", "s1", "s2"])
        let since = Date()
        #expect(
            SyncStatus.offline(StickerClientError.busy, since: since) == .offline(StickerClientError.busy, since: since)
        )
        #expect(
            SyncStatus.offline(StickerClientError.busy, since: since)
                != .offline(StickerClientError.notSynced, since: since))
        let syncedAt = try #require(sync.folder.bookmark()?.syncedAt)
        #expect(
            SyncStatus.upToDate(revision: 1, at: syncedAt, pendingFiles: 0)
                == .upToDate(revision: 1, at: syncedAt, pendingFiles: 0))
        #expect(SyncStatus.syncing(SyncProgress(files: 1)) != .syncing(SyncProgress(files: 2)))
    }
}

/// A middleware an app adds: it records every operation and adds a header.
struct Recording: ClientMiddleware {
    let seen: Operations

    final class Operations: @unchecked Sendable {
        private let lock = NSLock()
        private var ids: [String] = []
        var all: [String] { lock.withLock { ids } }
        func add(_ id: String) { lock.withLock { ids.append(id) } }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        seen.add(operationID)
        var request = request
        request.headerFields[HTTPField.Name("X-App")!] = "stickers"
        return try await next(request, body, baseURL)
    }
}

extension APITests {
    @Test("An app's middlewares see every request, image files and bundles included, as the generated client's do")
    func appMiddlewares() async throws {
        // Setup: one sync of 3 stickers (single files) and one of 40 (a bundle).
        for stickers in [3, 40] {
            let service = MemoryService(stickers: stickers)
            let recording = Recording(seen: .init())
            let sync = StickerSync(
                service: URL(string: "http://stickers.test")!,
                folder: LocalCatalog(directory: StickerSync.temporaryFolder()), transport: service,
                middlewares: [recording])
            // Action
            _ = try await sync.sync()
            // Check: each operation seen, and the header reached the service on every request.
            let expected =
                stickers == 3
                ? ["getManifest", "getAsset", "getAsset", "getAsset"] : ["getManifest", "postAssetBundle"]
            #expect(recording.seen.all.sorted() == expected.sorted())
            #expect(service.requests.allSatisfy { $0.headerFields[HTTPField.Name("X-App")!] == "stickers" })
        }
    }
}
