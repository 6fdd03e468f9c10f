import Crypto
import Foundation

/// A first sync of thousands of files asks for them in bundles (`POST /v1/assets/bundle`): a request per file cost
/// the client three times curl's CPU and the service as much again, which one request per few hundred files does not.
extension Downloads {
    /// From this many files, a run asks for them in bundles first.
    static let bundledFrom = 32
    /// A bundle asks for at most this many images (the service's limit) and, by their manifest sizes, about this many
    /// bytes, so that a few run at once and the last does not hold up the end.
    static let bundleFiles = 256
    static let bundleBytes = 2 << 20

    /// A path on the service (a bundle's images come from it), not a CDN's URL.
    static func isOnService(_ link: AssetLink) -> Bool {
        link.url.hasPrefix("/v1/assets/")
    }

    /// `assets` in bundles, in order.
    static func batches(_ assets: [AssetLink]) -> [[AssetLink]] {
        var batches: [[AssetLink]] = []
        var bytes = 0
        for asset in assets {
            if batches.isEmpty || batches[batches.count - 1].count == bundleFiles || bytes + asset.bytes > bundleBytes && bytes > 0 {
                (batches, bytes) = (batches + [[]], 0)
            }
            batches[batches.count - 1].append(asset)
            bytes += max(asset.bytes, 0)
        }
        return batches
    }

    /// Fetches `assets` in bundles, half as many at once as single files, keeping each image whose digest matches
    /// (`kept` is told its bytes); returns those to fetch alone: withheld, corrupt, or in a bundle that failed. A
    /// service without bundles (404, 405, 501) is asked for none after it says so. Ends the run as a single file
    /// does: no network, a full disk, a cancellation.
    func fetchBundled(_ assets: [AssetLink], with bundle: @escaping Bundle, kept: (Int) -> Void) async throws -> [AssetLink] {
        var batches = Self.batches(assets)[...]
        var left: [AssetLink] = []
        var unsupported = false
        try await withThrowingTaskGroup(of: BundleResult.self) { group in
            for _ in 0..<min(max(concurrency / 2, 1), batches.count) {
                let batch = batches.removeFirst()
                group.addTask { try await fetch(batch, bundle) }
            }
            while let result = try await group.next() {
                result.kept.forEach(kept)
                left += result.left
                unsupported = unsupported || result.unsupported
                guard let batch = batches.popFirst() else { continue }
                if unsupported { left += batch } else { group.addTask { try await fetch(batch, bundle) } }
            }
        }
        return left
    }

    private struct BundleResult: Sendable {
        var kept: [Int] = []
        var left: [AssetLink] = []
        var unsupported = false
    }

    private func fetch(_ batch: [AssetLink], _ bundle: @escaping Bundle) async throws -> BundleResult {
        var result = BundleResult()
        var answered = 0
        do {
            try await BundleFrames.read(try await bundle(batch), for: batch) { index, frame in
                answered = index + 1
                guard case .image(let data) = frame, Self.hex(SHA256.hash(data: data)) == batch[index].sha256 else {
                    result.left.append(batch[index])
                    return
                }
                try catalog.keep(data, sha256: batch[index].sha256)
                result.kept.append(data.count)
            }
        } catch {
            try Task.checkCancellation()
            if error is CancellationError { throw error }
            let failure = error as? StickerClientError ?? .unreachable("a bundle's answer: \(error)", reason: .of(error))
            switch failure {
            case .storage: throw failure
            case .unreachable(_, let reason) where reason == .offline || reason == .timedOut || reason == .tls: throw failure
            case .refused(let status, _, _) where [404, 405, 501].contains(status): result.unsupported = true
            default: break
            }
            result.left += batch[answered...]
        }
        return result
    }
}
