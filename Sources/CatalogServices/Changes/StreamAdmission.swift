import NIOCore

/// Whether one more event stream may open, and the streams open: at most `total` on this replica, `perUser` for one
/// signed-in user and `perAddress` from one client address. Every stream counts against its address, so one client
/// cannot take the replica's streams (nor its file descriptors), and a signed-in one against its user too, so one
/// account cannot take its address's share. Not synchronised: `EventHub` holds a lock around it.
package struct StreamAdmission: Sendable {
    package struct Limits: Sendable, Equatable {
        package var total: Int
        package var perUser: Int
        package var perAddress: Int

        package init(total: Int, perUser: Int, perAddress: Int) {
            self.total = total
            self.perUser = perUser
            self.perAddress = perAddress
        }
    }

    /// The bound a refused stream reached; the most particular one is named when several are.
    package enum Refusal: Error, Equatable, Sendable {
        case user, address, replica
    }

    package let limits: Limits
    package private(set) var open = 0
    private var users: [String: Int] = [:]
    private var addresses: [ClientAddress: Int] = [:]

    package init(limits: Limits) { self.limits = limits }

    /// Counts one more stream of `user` (nil: anonymous) from `address`, or says which bound it would pass.
    package mutating func admit(user: String?, address: ClientAddress) throws(Refusal) {
        if let user, users[user, default: 0] >= limits.perUser { throw .user }
        guard addresses[address, default: 0] < limits.perAddress else { throw .address }
        guard open < limits.total else { throw .replica }
        open += 1
        addresses[address, default: 0] += 1
        if let user { users[user, default: 0] += 1 }
    }

    /// Gives back the place of a stream `admit` counted.
    package mutating func release(user: String?, address: ClientAddress) {
        open -= 1
        Self.decrement(&addresses, address)
        if let user { Self.decrement(&users, user) }
    }

    package func streams(of user: String) -> Int { users[user, default: 0] }
    package func streams(from address: ClientAddress) -> Int { addresses[address, default: 0] }

    /// Keys whose count reaches zero leave, so the maps hold only clients with streams open.
    private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
        guard let count = counts[key] else { return }
        counts[key] = count > 1 ? count - 1 : nil
    }
}
