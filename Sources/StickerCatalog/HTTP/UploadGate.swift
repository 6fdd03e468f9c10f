import Synchronization

/// Bounds the uploads in progress (reading, validating, storing): past the bound an upload is refused at once with
/// 503 `too_many_uploads`, so slow or numerous uploaders cannot take all memory and all decoding threads.
final class UploadGate: Sendable {
    let limit: Int
    private let inProgress = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Slots held now (a refused upload holds one only for the instant it is counted and refused).
    var current: Int { inProgress.load(ordering: .relaxed) }

    /// Runs `body` holding one of the `limit` slots.
    func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        guard inProgress.add(1, ordering: .acquiringAndReleasing).newValue <= limit else {
            inProgress.subtract(1, ordering: .acquiringAndReleasing)
            var problem = Problem(.serviceUnavailable, "too_many_uploads", "\(limit) uploads are in progress; try again shortly.")
            problem.headers[.retryAfter] = "1"
            throw problem
        }
        defer { inProgress.subtract(1, ordering: .acquiringAndReleasing) }
        return try await body()
    }
}
