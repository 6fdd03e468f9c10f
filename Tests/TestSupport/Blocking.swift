import Dispatch

/// Runs blocking work (socket reads, waiting for a process) on a thread of its own, off Swift's cooperative pool:
/// the tests run in parallel on two cores, and a blocked cooperative thread would stall every server under test.
package func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
