import Hummingbird

/// Whether one more event stream may open, and the streams open: at most `total` on this replica, `perUser` for one
/// signed-in user and `perAddress` from one client address. Every stream counts against its address, so one client
/// cannot take the replica's streams (nor its file descriptors), and a signed-in one against its user too, so one
/// account cannot take its address's share. Not synchronised: `EventHub` holds a lock around it.
struct StreamAdmission: Sendable {
    struct Limits: Sendable, Equatable {
        var total: Int
        var perUser: Int
        var perAddress: Int
    }

    /// The bound a refused stream reached; the most particular one is named when several are.
    enum Refusal: Error, Equatable, Sendable {
        case user, address, replica
    }

    let limits: Limits
    private(set) var open = 0
    private var users: [String: Int] = [:]
    private var addresses: [ClientAddress: Int] = [:]

    init(limits: Limits) { self.limits = limits }

    /// Counts one more stream of `user` (nil: anonymous) from `address`, or says which bound it would pass.
    mutating func admit(user: String?, address: ClientAddress) throws(Refusal) {
        if let user, users[user, default: 0] >= limits.perUser { throw .user }
        guard addresses[address, default: 0] < limits.perAddress else { throw .address }
        guard open < limits.total else { throw .replica }
        open += 1
        addresses[address, default: 0] += 1
        if let user { users[user, default: 0] += 1 }
    }

    /// Gives back the place of a stream `admit` counted.
    mutating func release(user: String?, address: ClientAddress) {
        open -= 1
        Self.decrement(&addresses, address)
        if let user { Self.decrement(&users, user) }
    }

    func streams(of user: String) -> Int { users[user, default: 0] }
    func streams(from address: ClientAddress) -> Int { addresses[address, default: 0] }

    /// Keys whose count reaches zero leave, so the maps hold only clients with streams open.
    private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
        guard let count = counts[key] else { return }
        counts[key] = count > 1 ? count - 1 : nil
    }
}

extension ServiceOptions {
    /// The bounds the options set on this replica's event streams.
    var streamLimits: StreamAdmission.Limits {
        .init(total: maxEventStreams, perUser: maxEventStreamsPerUser, perAddress: maxEventStreamsPerAddress)
    }
}

extension StreamAdmission.Refusal {
    /// The answer: 503 when the replica is full (another replica may have room), 429 when the client holds its share.
    func problem(_ limits: StreamAdmission.Limits) -> Problem {
        var problem = switch self {
        case .replica:
            Problem(.serviceUnavailable, "too_many_streams", "This replica has \(limits.total) event streams open; try another or later.")
        case .user:
            Problem(.tooManyRequests, "too_many_user_streams",
                    "This user has \(limits.perUser) event streams open here; close one (or let it end) before opening another.")
        case .address:
            Problem(.tooManyRequests, "too_many_address_streams",
                    "Your network address has \(limits.perAddress) event streams open here; try again later.")
        }
        // A client over its share waits longer than one that only found a full replica.
        problem.headers[.retryAfter] = self == .replica ? "5" : "30"
        return problem
    }

    /// The `reason` label of `event_streams_refused_total`.
    var label: String {
        switch self {
        case .user: "user"
        case .address: "address"
        case .replica: "replica"
        }
    }
}
