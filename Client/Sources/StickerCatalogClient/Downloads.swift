import Crypto
import Foundation
import OpenAPIRuntime

/// Downloads files with bounded concurrency, keeping each only when its SHA-256 and byte count match the manifest;
/// a mismatch is discarded and fetched again, up to three times. Many files on the service come first in bundles
/// (`Downloads+Bundles.swift`); what a bundle does not bring is fetched alone.
struct Downloads: Sendable {
    /// Fetches an image, handing its bytes to `into` as they arrive (at most as many as its link states).
    typealias Fetch = @Sendable (AssetLink, _ into: (ArraySlice<UInt8>) throws -> Void) async throws -> Void
    /// Asks the service for many images at once: the answer's bytes (`BundleFrames`).
    typealias Bundle = @Sendable ([AssetLink]) async throws -> HTTPBody

    let catalog: LocalCatalog
    let concurrency: Int
    /// The largest image believed (`SyncOptions.largestImage`): a larger one is refused unfetched.
    let largestFile: Int
    let fetch: Fetch
    var bundle: Bundle?

    /// What a run kept and what it could not.
    struct Outcome: Sendable {
        var bytes = 0
        /// Files that failed every try, by digest, with the last reason.
        var failed: [String: StickerClientError] = [:]
        /// Digests whose URL the service refused as expired or forbidden (403 or 410).
        var refused: Set<String> {
            Set(
                failed.filter {
                    if case .refused(403, _, _) = $0.value {
                        true
                    } else if case .refused(410, _, _) = $0.value {
                        true
                    } else {
                        false
                    }
                }.keys)
        }
    }

    /// Where downloading `assets` starts: none of their files or bytes yet. Byte counts are the server's: clamped, so a
    /// sum of absurd ones cannot overflow (such a file is refused when its turn comes).
    func start(_ assets: [AssetLink]) -> SyncProgress {
        SyncProgress(totalFiles: assets.count, totalBytes: assets.reduce(0) { $0 + min(max($1.bytes, 0), largestFile) })
    }

    /// Downloads every asset in `assets`, in order (as many at once as `concurrency`), counted on `counter`. One file
    /// that fails (a 404, a 500, a digest that never matches) is
    /// reported in the outcome and the others are kept; a full disk, a lost network, a service or CDN that answers
    /// 503 or 429, or a cancellation ends the run (the files kept so far stay kept).
    func run(_ assets: [AssetLink], counter: ProgressCounter) async throws -> Outcome {
        var outcome = Outcome()
        try LocalCatalog.makeFolder(catalog.filesDirectory)
        var pending = assets[...]
        if let bundle, assets.count >= Self.bundledFrom {
            let left = try await fetchBundled(assets.filter(isBundled), with: bundle, counter: counter) { kept in
                outcome.bytes += kept
            }
            pending = (left + assets.filter { !isBundled($0) })[...]
        }
        try await withThrowingTaskGroup(of: (AssetLink, Result<Int, StickerClientError>).self) { group in
            for _ in 0..<min(concurrency, pending.count) {
                let asset = pending.removeFirst()
                group.addTask { (asset, try await one(asset, counter)) }
            }
            while let (asset, kept) = try await group.next() {
                switch kept {
                case .success(let bytes): outcome.bytes += bytes
                case .failure(let error): outcome.failed[asset.sha256] = error
                }
                counter.fileDone()
                if let asset = pending.popFirst() { group.addTask { (asset, try await one(asset, counter)) } }
            }
        }
        return outcome
    }

    /// Fetches and keeps one file: its byte count, or why it could not be had. Throws only what ends the whole run.
    private func one(_ asset: AssetLink, _ counter: ProgressCounter) async throws -> Result<Int, StickerClientError> {
        // A digest names a file on disk: only 64 lowercase hex digits may (`../x` would name one elsewhere).
        guard LocalCatalog.isDigest(asset.sha256) else {
            return .failure(.invalidAnswer("an image digest that is not one"))
        }
        guard (0...largestFile).contains(asset.bytes) else {
            return .failure(.invalidAnswer("an image of \(asset.bytes) bytes, past the \(largestFile) believed"))
        }
        var last = StickerClientError.corrupt(sha256: asset.sha256)
        for attempt in 0..<3 {
            // A cancelled sync fetches nothing more: a body cut short by the cancel is not a corrupt file.
            try Task.checkCancellation()
            // Written to disk and hashed as it arrives: memory does not grow with the image.
            let file = try IncomingFile(asset, in: catalog)
            // Bytes of an attempt that is not kept are taken back from the progress.
            var kept = false
            defer { if !kept { counter.add(bytes: -file.count) } }
            do {
                try await fetch(asset) { bytes in
                    try file.append(bytes)
                    counter.add(bytes: bytes.count)
                }
            } catch let error as StickerClientError {
                try Task.checkCancellation()
                // A full disk ends the run: no other file would fit either.
                if case .storage = error { throw error }
                // A 503 or 429 (tried as often as any request) says the service or its CDN is down: no other file
                // would do better, so the sync ends and the next one resumes.
                if case .unavailable = error { throw error }
                if case .timedOut = error { throw error }
                guard case .unreachable(_, let reason) = error else { return .failure(error) }
                // No network, no answer in time, no TLS: no other file would do better, so the sync ends (offline)
                // rather than trying each of thousands of files. A connection that dropped in the middle of a body is
                // tried again, as a corrupt file is.
                if reason == .offline || reason == .timedOut || reason == .tls { throw error }
                guard attempt < 2 else { return .failure(error) }
                last = error
                continue
            }
            try Task.checkCancellation()
            kept = try file.keep()
            if kept { return .success(file.count) }
            last = .corrupt(sha256: asset.sha256)
        }
        return .failure(last)
    }

    /// Lowercase hex, without `String(format:)` (which costs more than the hash on Linux).
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
