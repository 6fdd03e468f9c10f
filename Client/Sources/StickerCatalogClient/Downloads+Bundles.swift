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

    /// An image a bundle may bring: a path on the service (not a CDN's URL), with a digest and a size that a single
    /// fetch would believe (anything else is left to it, and refused there).
    func isBundled(_ link: AssetLink) -> Bool {
        link.url.hasPrefix("/v1/assets/") && LocalCatalog.isDigest(link.sha256)
            && (1...largestFile).contains(link.bytes)
    }

    /// `assets` in bundles, in order.
    static func batches(_ assets: [AssetLink]) -> [[AssetLink]] {
        var batches: [[AssetLink]] = []
        var bytes = 0
        for asset in assets {
            if batches.isEmpty || batches[batches.count - 1].count == bundleFiles
                || bytes + asset.bytes > bundleBytes && bytes > 0
            {
                (batches, bytes) = (batches + [[]], 0)
            }
            batches[batches.count - 1].append(asset)
            bytes += asset.bytes  // at most `largestFile` each (`isBundled`): no sum overflows
        }
        return batches
    }

    /// Fetches `assets` in bundles, half as many at once as single files, keeping each image whose digest matches
    /// (`kept` is told its bytes; `counter` counts them as they arrive, and each image kept as a file done); returns
    /// those to fetch alone: withheld, corrupt, or in a bundle that failed. A
    /// service without bundles (or a proxy refusing them) is asked for none after it says so. Ends the run as a single
    /// file does: no network, a full disk, a cancellation.
    func fetchBundled(
        _ assets: [AssetLink], with bundle: @escaping Bundle, counter: ProgressCounter, kept: (Int) -> Void
    ) async throws -> [AssetLink] {
        var batches = Self.batches(assets)[...]
        var left: [AssetLink] = []
        var unsupported = false
        try await withThrowingTaskGroup(of: BundleResult.self) { group in
            for _ in 0..<min(max(concurrency / 2, 1), batches.count) {
                let batch = batches.removeFirst()
                group.addTask { try await fetch(batch, bundle, counter) }
            }
            while let result = try await group.next() {
                result.kept.forEach(kept)
                left += result.left
                unsupported = unsupported || result.unsupported
                if unsupported {
                    // Every batch not asked for yet is fetched alone.
                    left += batches.joined()
                    batches = []
                } else if let batch = batches.popFirst() {
                    group.addTask { try await fetch(batch, bundle, counter) }
                }
            }
        }
        return left
    }

    private struct BundleResult: Sendable {
        var kept: [Int] = []
        var left: [AssetLink] = []
        var unsupported = false
    }

    private func fetch(
        _ batch: [AssetLink], _ bundle: @escaping Bundle, _ counter: ProgressCounter
    ) async throws -> BundleResult {
        var result = BundleResult()
        var answered = 0
        // Each image written to disk and hashed as its frame arrives, as a single fetch is.
        var incoming: IncomingFile?
        do {
            try await BundleFrames.read(try await bundle(batch), for: batch, largest: largestFile) { index, frame in
                switch frame {
                case .begins: incoming = try IncomingFile(batch[index], in: catalog)
                case .bytes(let bytes):
                    try incoming?.append(bytes)
                    counter.add(bytes: bytes.count)
                case .ends:
                    if let file = incoming, try file.keep() {
                        result.kept.append(file.count)
                        counter.fileDone()
                    } else {
                        result.left.append(batch[index])
                        counter.add(bytes: -(incoming?.count ?? 0))
                    }
                    (incoming, answered) = (nil, index + 1)
                case .withheld:
                    result.left.append(batch[index])
                    answered = index + 1
                }
            }
        } catch {
            // An image cut in the middle is fetched again, alone: its bytes so far are not progress.
            counter.add(bytes: -(incoming?.count ?? 0))
            incoming = nil
            try Task.checkCancellation()
            if error is CancellationError { throw error }
            let failure =
                error as? StickerClientError
                ?? .unreachable("a bundle's answer: \(Redaction.describe(error))", reason: .of(error))
            switch failure {
            case .storage, .unavailable, .timedOut: throw failure
            case .unreachable(_, let reason) where reason == .offline || reason == .timedOut || reason == .tls:
                throw failure
            // A service without bundles, or a proxy that will not pass them: no more bundles this sync.
            case .refused(let status, _, _) where [400, 403, 404, 405, 413, 415, 501].contains(status):
                result.unsupported = true
            default: break
            }
            result.left += batch[answered...]
        }
        return result
    }
}
