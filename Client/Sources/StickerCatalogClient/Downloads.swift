import Crypto
import Foundation

/// Downloads files with bounded concurrency, keeping each only when its SHA-256 and byte count match the manifest;
/// a mismatch is discarded and fetched again, up to three times.
struct Downloads: Sendable {
    /// Fetches an image's bytes, at most as many as its link states.
    typealias Fetch = @Sendable (AssetLink) async throws -> Data

    let catalog: LocalCatalog
    let concurrency: Int
    let fetch: Fetch

    /// Downloads every asset in `assets`; the bytes kept. Throws `corrupt` after three mismatches, or `refused` when
    /// the service refuses one (403: a signed URL expired).
    func run(_ assets: [AssetLink], progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> Int {
        var bytes = 0, done = 0
        try FileManager.default.createDirectory(at: catalog.filesDirectory, withIntermediateDirectories: true)
        try await withThrowingTaskGroup(of: Int.self) { group in
            var pending = assets[...]
            for _ in 0..<min(concurrency, pending.count) {
                let asset = pending.removeFirst()
                group.addTask { try await one(asset) }
            }
            while let kept = try await group.next() {
                (bytes, done) = (bytes + kept, done + 1)
                progress(done, assets.count)
                if let asset = pending.popFirst() { group.addTask { try await one(asset) } }
            }
        }
        return bytes
    }

    private func one(_ asset: AssetLink) async throws -> Int {
        // A digest names a file on disk: only 64 lowercase hex digits may (`../x` would name one elsewhere).
        guard LocalCatalog.isDigest(asset.sha256), asset.bytes >= 0 else { throw StickerClientError.invalidAnswer("an image digest that is not one") }
        for attempt in 0..<3 {
            let body: Data
            do {
                body = try await fetch(asset)
            } catch StickerClientError.unreachable where attempt < 2 {
                // A connection that dropped in the middle of a body: tried again, as a corrupt file is.
                continue
            }
            if body.count == asset.bytes, Self.hex(SHA256.hash(data: body)) == asset.sha256 {
                try catalog.keep(body, sha256: asset.sha256)
                return body.count
            }
        }
        throw StickerClientError.corrupt(sha256: asset.sha256)
    }

    /// Lowercase hex, without `String(format:)` (which costs more than the hash on Linux).
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
        return String(decoding: text, as: UTF8.self)
    }
}
