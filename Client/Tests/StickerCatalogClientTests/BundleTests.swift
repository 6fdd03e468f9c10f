import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// A first sync of many files asks for them in bundles; whatever a bundle does not bring whole and true (an older
/// service, a withheld image, a lying or endless answer) is fetched alone, and the sync ends with every file right.
@Suite struct BundleTests {
    static func singles(_ service: MemoryService) -> Int {
        service.requests.filter { $0.path?.hasPrefix("/v1/assets/") == true && $0.path != "/v1/assets/bundle" }.count
    }

    /// Every file the catalog shows is on disk with the bytes the service holds.
    static func whole(_ sync: StickerSync, _ service: MemoryService, stickers: Int) throws {
        let catalog = try #require(sync.folder.load())
        #expect(catalog.groups.first?.stickers.count == stickers && catalog.pendingFiles == 0)
        for (sha, bytes) in service.files {
            #expect(
                FileManager.default.contents(
                    atPath: sync.folder.filesDirectory.appendingPathComponent(sha + ".png").path) == bytes)
        }
    }

    @Test func aFirstSyncOfManyFilesTakesThemInBundles() async throws {
        // Setup: 600 stickers (three bundles of at most 256).
        let service = MemoryService(stickers: 600)
        let sync = StickerSync.testing(service)
        // Action
        let report = try await sync.sync()
        // Check: three bundle requests, no single file, everything on disk.
        #expect(report.filesDownloaded == 600 && service.count("/v1/assets/bundle") == 3 && Self.singles(service) == 0)
        try Self.whole(sync, service, stickers: 600)
    }

    @Test func aFewFilesOrAServiceWithoutBundlesGoOneByOne() async throws {
        let few = MemoryService(stickers: 31)
        let old = MemoryService(stickers: 600)
        old.bundles = false
        let small = StickerSync.testing(few)
        let older = StickerSync.testing(old)
        _ = try await small.sync()
        let report = try await older.sync()
        #expect(few.count("/v1/assets/bundle") == 0 && Self.singles(few) == 31)
        // The three bundles go at once; each is refused (404), and every file comes alone.
        #expect(report.filesDownloaded == 600 && old.count("/v1/assets/bundle") <= 3 && Self.singles(old) == 600)
        try Self.whole(older, old, stickers: 600)
        // One bundle at a time (two connections): the first refusal sends every batch after it alone too.
        let slow = MemoryService(stickers: 600)
        slow.bundles = false
        let one = StickerSync.testing(slow) { $0.concurrency = 2 }
        let all = try await one.sync()
        #expect(all.filesDownloaded == 600 && slow.count("/v1/assets/bundle") == 1 && Self.singles(slow) == 600)
        try Self.whole(one, slow, stickers: 600)
    }

    @Test func anAbsurdSizeInTheManifestIsRefusedNotSummed() async throws {
        // Setup: 100 stickers, one of them (and its thumbnail) said to be Int.max bytes.
        let service = MemoryService(stickers: 100)
        var group = (service.manifest["groups"] as! [[String: Any]])[0]
        var stickers = group["stickers"] as! [[String: Any]]
        var link = stickers[7]["asset"] as! [String: Any]
        link["bytes"] = Int.max
        (stickers[7]["asset"], stickers[7]["thumbnail"]) = (link, link)
        group["stickers"] = stickers
        service.manifest["groups"] = [group]
        let sync = StickerSync.testing(service)
        // Action
        let report = try await sync.sync()
        // Check: no trap; that file refused alone, the 99 others kept from the bundle.
        #expect(report.failedFiles.count == 1 && report.failedFiles[link["sha256"] as! String] != nil)
        #expect(report.filesDownloaded == 99 && service.count("/v1/assets/bundle") == 1)
    }

    @Test(arguments: ["withheld", "corrupt", "longer", "cut", "extra", "endless"])
    func aBundleThatLiesCostsOnlyRetries(_ lie: String) async throws {
        // Setup: 100 stickers in one bundle, its answer altered after the first frame.
        let service = MemoryService(stickers: 100)
        service.tamper = { frames in
            var frames = frames
            let second = 5 + Int(frames[frames.startIndex + 4])
            let length = Int(frames[second + 4])
            switch lie {
            case "withheld": frames.replaceSubrange(second..<(second + 5 + length), with: [2, 0, 0, 0, 0])
            case "corrupt": frames[second + 5] ^= 0xFF
            case "longer": frames[second + 4] = 200
            case "cut": frames = frames.prefix(second + 8)
            case "extra": frames.append(contentsOf: [0, 0, 0, 0, 1, 7])
            default: frames.append(Data(repeating: 0, count: 4 << 20))  // past what the frames can take
            }
            return frames
        }
        let sync = StickerSync.testing(service)
        // Action
        let report = try await sync.sync()
        // Check: every file right; the first kept from the bundle; the files after the lie fetched alone.
        #expect(report.filesDownloaded == 100 && report.failedFiles.isEmpty, "\(lie)")
        try Self.whole(sync, service, stickers: 100)
        // An answer longer than its frames can be is refused before a byte is read: all alone then.
        let expected = ["withheld": 1, "corrupt": 1, "longer": 99, "cut": 99, "extra": 100, "endless": 100][lie]!
        #expect(Self.singles(service) == expected, "\(lie): \(Self.singles(service)) single files")
    }

    @Test func framesAreReadAcrossAnyChunking() async throws {
        // Setup: two images, their frames split into one-byte chunks.
        let images = [Data("first image".utf8), Data("second".utf8)]
        let links = try images.map {
            try JSONDecoder().decode(
                AssetLink.self, from: JSONSerialization.data(withJSONObject: MemoryService.link($0)))
        }
        var frames = Data()
        for image in images { frames.append(contentsOf: [0, 0, 0, 0, UInt8(image.count)] + image) }
        let chunks = frames.map { ArraySlice([$0]) }
        // Action
        var read: [Data] = []
        try await BundleFrames.read(chunks.async, for: links, largest: 1 << 20) { _, frame in
            Self.collect(frame, into: &read)
        }
        // Check
        #expect(read == images)
        // A frame past the last image asked for is refused, after the images before it.
        var more: [Data] = []
        await #expect(throws: StickerClientError.self) {
            try await BundleFrames.read((chunks + [[1, 0, 0, 0, 0]]).async, for: links, largest: 1 << 20) { _, frame in
                Self.collect(frame, into: &more)
            }
        }
        #expect(more == images)
        // An image its manifest says is past what a single fetch believes: refused at its header.
        var huge = try JSONSerialization.jsonObject(with: JSONEncoder().encode(links[0])) as! [String: Any]
        huge["bytes"] = (1 << 20) + 1
        let claimed = try JSONDecoder().decode(AssetLink.self, from: JSONSerialization.data(withJSONObject: huge))
        await #expect(throws: StickerClientError.self) {
            try await BundleFrames.read(
                [ArraySlice<UInt8>([0, 0, 0x10, 0, 1])].async, for: [claimed], largest: 1 << 20
            ) { _, _ in }
        }
    }

    /// Appends a whole image to `images` at its `.ends`, from the parts before it.
    static func collect(_ frame: BundleFrames.Frame, into images: inout [Data]) {
        switch frame {
        case .begins: images.append(Data())
        case .bytes(let bytes): images[images.count - 1].append(contentsOf: bytes)
        case .ends, .withheld: break
        }
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
