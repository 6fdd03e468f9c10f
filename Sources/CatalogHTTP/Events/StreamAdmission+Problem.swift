import CatalogServices
import Hummingbird

extension StreamAdmission.Refusal {
    /// The answer: 503 when the replica is full (another replica may have room), 429 when the client holds its share.
    package func problem(_ limits: StreamAdmission.Limits) -> Problem {
        var problem =
            switch self {
            case .replica:
                Problem(
                    .serviceUnavailable, "too_many_streams",
                    "This replica has \(limits.total) event streams open; try another or later.")
            case .user:
                Problem(
                    .tooManyRequests, "too_many_user_streams",
                    "This user has \(limits.perUser) event streams open here; close one (or let it end) before opening another."
                )
            case .address:
                Problem(
                    .tooManyRequests, "too_many_address_streams",
                    "Your network address has \(limits.perAddress) event streams open here; try again later.")
            }
        // A client over its share waits longer than one that only found a full replica.
        problem.headers[.retryAfter] = self == .replica ? "5" : "30"
        return problem
    }

    /// The `reason` label of `event_streams_refused_total`.
    package var label: String {
        switch self {
        case .user: "user"
        case .address: "address"
        case .replica: "replica"
        }
    }
}
