/// Why a delivery is refused, with the HTTP status HTTP gives it: malformed (400), not authentic (401), authentic
/// but for another app or environment (422).
public enum PurchaseError: Error, Sendable, Equatable {
    case malformed(String)
    case unauthorized(String)
    case rejected(String)

    public var reason: String {
        switch self {
        case .malformed(let reason), .unauthorized(let reason), .rejected(let reason): reason
        }
    }
}
