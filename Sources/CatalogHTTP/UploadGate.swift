import CatalogServices
import Hummingbird
import Synchronization

/// Bounds the uploads in progress (reading, validating, storing): past the bound an upload is refused at once with
/// 503 `too_many_uploads`, so slow or numerous uploaders cannot take all memory and all decoding threads.
/// Exports use one too (`code` `export_in_progress`).
package final class UploadGate: Sendable {
    package let limit: Int
    /// The problem code and the plural noun of a refusal.
    package let code: String
    package let work: String
    private let inProgress = Atomic<Int>(0)

    package init(limit: Int, code: String = "too_many_uploads", work: String = "uploads") {
        (self.limit, self.code, self.work) = (limit, code, work)
    }

    /// Slots held now (a refused upload holds one only for the instant it is counted and refused).
    package var current: Int { inProgress.load(ordering: .relaxed) }

    /// Runs `body` holding one of the `limit` slots.
    package func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        let slot = try take()
        defer { slot.release() }
        return try await body()
    }

    /// One of the `limit` slots, held until released (or the slot is dropped): for work that outlives its handler, as
    /// an answer streamed after the handler returned. Throws 503 `code` with `Retry-After` when none is free.
    package func take() throws -> Slot {
        guard inProgress.add(1, ordering: .acquiringAndReleasing).newValue <= limit else {
            inProgress.subtract(1, ordering: .acquiringAndReleasing)
            var problem = Problem(
                .serviceUnavailable, code,
                "\(limit) \(limit == 1 ? String(work.dropLast()) + " is" : work + " are") in progress; try again shortly."
            )
            problem.headers[.retryAfter] = "1"
            throw problem
        }
        return Slot(gate: self)
    }

    /// A slot taken; given back once, by `release` or when dropped.
    package final class Slot: Sendable {
        private let gate: UploadGate
        private let held = Atomic(true)

        fileprivate init(gate: UploadGate) { self.gate = gate }

        package func release() {
            if held.exchange(false, ordering: .acquiringAndReleasing) {
                gate.inProgress.subtract(1, ordering: .acquiringAndReleasing)
            }
        }

        deinit { release() }
    }
}

/// Takes an upload's slot before anything reads its body (`IdempotencyMiddleware` buffers a keyed one whole), and
/// holds it until the answer is made; counts a refusal as the upload's verdict.
package struct UploadAdmission: RouterMiddleware {
    package typealias Context = AdminRequestContext
    package let gate: UploadGate
    package let metrics: CatalogMetrics

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var admitted = false
        do {
            return try await gate.withSlot {
                admitted = true
                return try await next(request, context)
            }
        } catch  where !admitted {
            metrics.upload(verdict: Problem(error)?.code ?? "internal_error")
            throw error
        }
    }
}
