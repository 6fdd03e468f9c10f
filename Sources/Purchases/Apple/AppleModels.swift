import Foundation
import JWTKit

/// Apple's `ResponseBodyV2DecodedPayload`, read tolerantly: every field optional, an unknown `notificationType`
/// is just a string.
public struct AppleNotificationPayload: JWTPayload, Sendable {
    public struct NotificationData: Codable, Sendable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var environment: String?
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
    }

    public var notificationType: String?
    public var subtype: String?
    public var notificationUUID: String?
    public var data: NotificationData?
    public var version: String?
    /// Milliseconds since 1970.
    public var signedDate: Int64?

    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Apple's `JWSTransactionDecodedPayload`, read tolerantly.
public struct AppleTransactionPayload: JWTPayload, Sendable {
    public var transactionId: String?
    public var originalTransactionId: String?
    public var bundleId: String?
    public var productId: String?
    public var purchaseDate: Int64?
    public var expiresDate: Int64?
    public var revocationDate: Int64?
    public var revocationReason: Int?
    /// Absent, null, empty or all zeros all mean "none" (see `accountToken`).
    public var appAccountToken: String?
    public var environment: String?
    public var type: String?
    public var signedDate: Int64?
    /// The customer moved to a higher tier: this transaction no longer entitles.
    public var isUpgraded: Bool?

    public func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// The appAccountToken as a UUID, nil when absent, null, empty, malformed or all zeros.
    public var accountToken: UUID? {
        guard let text = appAccountToken, let uuid = UUID(uuidString: text) else { return nil }
        return uuid == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) ? nil : uuid
    }

    enum CodingKeys: String, CodingKey {
        case transactionId, originalTransactionId, bundleId, productId, purchaseDate, expiresDate, revocationDate
        case revocationReason, appAccountToken, environment, type, signedDate, isUpgraded
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.decodeLenient(String.self, forKey: .transactionId)
        originalTransactionId = try c.decodeLenient(String.self, forKey: .originalTransactionId)
        bundleId = try? c.decodeIfPresent(String.self, forKey: .bundleId)
        productId = try? c.decodeIfPresent(String.self, forKey: .productId)
        purchaseDate = try c.decodeMillis(forKey: .purchaseDate)
        expiresDate = try c.decodeMillis(forKey: .expiresDate)
        revocationDate = try c.decodeMillis(forKey: .revocationDate)
        revocationReason = try? c.decodeIfPresent(Int.self, forKey: .revocationReason)
        appAccountToken = try? c.decodeIfPresent(String.self, forKey: .appAccountToken)
        environment = try? c.decodeIfPresent(String.self, forKey: .environment)
        type = try? c.decodeIfPresent(String.self, forKey: .type)
        signedDate = try c.decodeMillis(forKey: .signedDate)
        isUpgraded = try? c.decodeIfPresent(Bool.self, forKey: .isUpgraded)
    }

    public func encode(to encoder: any Encoder) throws {}
}

/// Apple's `JWSRenewalInfoDecodedPayload`, the fields the entitlement rules read: the billing grace period.
public struct AppleRenewalPayload: JWTPayload, Sendable {
    public var originalTransactionId: String?
    public var environment: String?
    /// While Apple retries a failed renewal, the subscriber keeps access until then (milliseconds since 1970).
    public var gracePeriodExpiresDate: Int64?
    public var signedDate: Int64?

    public func verify(using algorithm: some JWTAlgorithm) async throws {}

    enum CodingKeys: String, CodingKey {
        case originalTransactionId, environment, gracePeriodExpiresDate, signedDate
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try c.decodeLenient(String.self, forKey: .originalTransactionId)
        environment = try? c.decodeIfPresent(String.self, forKey: .environment)
        gracePeriodExpiresDate = try c.decodeMillis(forKey: .gracePeriodExpiresDate)
        signedDate = try c.decodeMillis(forKey: .signedDate)
    }

    public func encode(to encoder: any Encoder) throws {}
}

extension KeyedDecodingContainer {
    /// A string, or a number written as one (transaction ids come as strings, but tolerate numbers).
    func decodeLenient(_ type: String.Type, forKey key: Key) throws -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text }
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return String(number) }
        return nil
    }

    /// Milliseconds since 1970, as an integer or a floating-point number; nil when absent or null.
    func decodeMillis(forKey key: Key) throws -> Int64? {
        if let value = try? decodeIfPresent(Int64.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Double.self, forKey: key), value.isFinite, abs(value) < 1e15 {
            return Int64(value)
        }
        return nil
    }
}

extension Date {
    init(millis: Int64) {
        self.init(timeIntervalSince1970: Double(millis) / 1000)
    }
}
