import CatalogServices
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Bundles in flight on this replica, and from each client address: an answer holds up to 16 MiB until the client has
/// read it, so a client that stops reading keeps its buffers. Past the replica's bound a bundle is a 503, past an
/// address's share a 429, both with `Retry-After`; a place is given back once its answer is written, or dropped unwritten.
package final class BundleGate: Sendable {
    package let limits: StreamAdmission.Limits
    private let admission: Mutex<StreamAdmission>

    /// `total` bundles in flight on this replica, `perAddress` from one client address (a client asks for four at once).
    package init(total: Int = 32, perAddress: Int = 16) {
        limits = StreamAdmission.Limits(total: total, perUser: .max, perAddress: perAddress)
        admission = Mutex(StreamAdmission(limits: limits))
    }

    /// A place for a bundle from `address`, or the problem that refuses it.
    package func enter(_ address: ClientAddress) throws -> Place {
        let refusal = admission.withLock { admission -> StreamAdmission.Refusal? in
            do throws(StreamAdmission.Refusal) {
                try admission.admit(user: nil, address: address)
                return nil
            } catch {
                return error
            }
        }
        if let error = refusal {
            var problem =
                error == .address
                ? Problem(
                    .tooManyRequests, "too_many_address_bundles",
                    "Your network address has \(limits.perAddress) bundles being answered here; read them first.")
                : Problem(
                    .serviceUnavailable, "too_many_bundles",
                    "This replica is answering \(limits.total) bundles; try again shortly.")
            problem.headers[.retryAfter] = error == .address ? "5" : "1"
            throw problem
        }
        return Place(gate: self, address: address)
    }

    fileprivate func leave(_ address: ClientAddress) {
        admission.withLock { $0.release(user: nil, address: address) }
    }

    /// One bundle's place, given back when the last reference to it goes: after its answer is written, or when the
    /// answer is dropped unwritten (a client gone, an error).
    package final class Place: Sendable {
        let gate: BundleGate
        let address: ClientAddress

        init(gate: BundleGate, address: ClientAddress) {
            (self.gate, self.address) = (gate, address)
        }

        deinit { gate.leave(address) }
    }
}
