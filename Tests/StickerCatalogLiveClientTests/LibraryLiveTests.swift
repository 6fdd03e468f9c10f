import Foundation
import HTTPTypes
import OpenAPIRuntime
import StickerCatalogClient
import Testing

/// The client's library mode against a live stickerd: the version the index states is the one the group route answers
/// (a sync with nothing new is one 304), a change to an installed group costs what changed, a change elsewhere costs one
/// request, and a group that turns premium leaves the installed set.
extension SyncTests {
    /// Counts the requests a library makes, by path.
    final class Counter: ClientMiddleware, @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        private var unchanged = 0
        var count: Int { lock.withLock { paths.count } }
        /// Answers 304.
        var notModified: Int { lock.withLock { unchanged } }
        var all: [String] { lock.withLock { paths } }
        func reset() { lock.withLock { paths = [] } }

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            lock.withLock { paths.append(request.path ?? "") }
            let (response, body) = try await next(request, body, baseURL)
            if response.status == .notModified { lock.withLock { unchanged += 1 } }
            return (response, body)
        }
    }

    /// Groups `ids` made for this test, each with two of the demo's pictures under new names.
    static func libraryGroups(_ service: LiveService, _ ids: [String]) async throws {
        let manifest = try await service.manifest()
        let pictures = ((manifest["groups"] as? [[String: Any]]) ?? []).flatMap {
            $0["stickers"] as? [[String: Any]] ?? []
        }
        .compactMap { ($0["asset"] as? [String: Any])?["url"] as? String }
        for id in ids {
            try await service.admin("POST", "groups", json: ["id": id, "name": id.capitalized])
            for (index, url) in pictures.prefix(2).enumerated() {
                let (_, bytes) = try await service.request("GET", url)
                try await service.admin(
                    "POST", "groups/\(id)/stickers?name=S\(index)&description=Sticker%20\(index)", body: bytes,
                    contentType: "image/png")
            }
        }
    }

    @Test func aLibraryKeepsItsGroupsInSyncAtTheCostOfWhatChanged() async throws {
        let service = try await Self.shared.value
        try await Self.libraryGroups(service, ["lib-a", "lib-b"])
        let counter = Counter()
        let library = StickerLibrary(
            service: service.base, folder: LocalCatalog(directory: Self.folder()), middlewares: [counter])
        let installed = try await library.install(group: "lib-a")
        #expect(installed.group.stickers.count == 2)
        for sticker in installed.group.stickers {
            #expect(library.fileURL(for: sticker.asset) != nil && library.fileURL(for: sticker.thumbnail) != nil)
        }
        // The index states the version the group route answered: a sync is one request, a 304 after the first.
        try await library.sync()
        counter.reset()
        #expect(try await library.sync().isEmpty)
        #expect(counter.count == 1 && counter.notModified == 1, "\(counter.all)")
        // A change to a group not installed: one request, no image.
        try await service.admin("PATCH", "groups/lib-b", json: ["name": "Lib B!"])
        counter.reset()
        #expect(try await library.sync().isEmpty && counter.count == 1, "\(counter.all)")
        // The index's revision moved with that change: nothing else did, so this one is a 304 again.
        #expect(try await library.sync().isEmpty && counter.notModified == 2, "\(counter.all)")
        // A text change in the installed group: the revalidation and the group, no image.
        let sticker = try #require(installed.group.stickers.first)
        try await service.admin("PATCH", "stickers/\(sticker.id)", json: ["description": "Changed"])
        counter.reset()
        let changed = try await library.sync()
        #expect(changed.changedGroups == ["lib-a"] && changed.filesDownloaded == 0 && counter.count == 2)
        #expect(library.installed.first?.group.stickers.first?.description == "Changed")
        // Premium now, and the user holds nothing: it leaves the installed set, its files go.
        try await service.admin("PATCH", "groups/lib-a", json: ["productId": "com.example.library"])
        let locked = try await library.sync()
        #expect(locked.removedGroups == ["lib-a"] && library.installed.isEmpty && locked.filesRemoved > 0)
        for id in ["lib-a", "lib-b"] { try await service.admin("DELETE", "groups/\(id)") }
    }

    /// Two `sticker-sync` processes (an app and its extension) install groups showing the same pictures into one
    /// folder at once: both groups end up installed, and neither process's purge takes a file the other's group shows.
    @Test func twoProcessesInstallIntoOneFolder() async throws {
        let service = try await Self.shared.value
        try await Self.libraryGroups(service, ["lib-c", "lib-d"])
        let syncer = URL(fileURLWithPath: LiveService.binary).deletingLastPathComponent().appending(
            path: "sticker-sync")
        try #require(
            FileManager.default.isExecutableFile(atPath: syncer.path),
            "no sticker-sync beside stickerd: make test builds it (swift build --product sticker-sync)")
        let folder = Self.folder()
        let processes = try ["lib-c", "lib-d"].map { id in
            let process = Process()
            process.executableURL = syncer
            process.arguments = [service.base.absoluteString, folder.path, "--install", id]
            (process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
            try process.run()
            return process
        }
        while processes.contains(where: \.isRunning) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(processes.map(\.terminationStatus) == [0, 0])
        let library = StickerLibrary(service: service.base, folder: LocalCatalog(directory: folder))
        #expect(Set(library.installed.map(\.id)) == ["lib-c", "lib-d"])
        for sticker in library.installed.flatMap(\.group.stickers) {
            #expect(library.fileURL(for: sticker.asset) != nil && library.fileURL(for: sticker.thumbnail) != nil)
        }
        for id in ["lib-c", "lib-d"] { try await service.admin("DELETE", "groups/\(id)") }
    }
}
