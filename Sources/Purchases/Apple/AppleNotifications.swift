import Foundation

/// What the App Store side of the service is configured with.
public struct AppleConfiguration: Sendable {
    public var verifier: AppleJWSVerifier
    public var bundleId: String
    /// The app's Apple id; checked on production notifications.
    public var appAppleId: Int64?

    public init(verifier: AppleJWSVerifier, bundleId: String, appAppleId: Int64?) {
        (self.verifier, self.bundleId, self.appAppleId) = (verifier, bundleId, appAppleId)
    }
}

/// App Store Server Notifications V2 and StoreKit 2 signed transactions, turned into purchase events.
public enum AppleNotifications {
    /// The event a `{"signedPayload": "<JWS>"}` body carries, for the URL's environment ("production" or "sandbox"):
    /// the notification verified, then the transaction inside it, then bundle id, environment and (in production)
    /// app id checked against `configuration`.
    public static func event(
        body: [UInt8], environment: String, configuration: AppleConfiguration
    ) async throws(PurchaseError) -> PurchaseEvent {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)),
            let jws = envelope.signedPayload
        else {
            throw .malformed("the body must be a JSON object with a signedPayload string")
        }
        let notification = try await configuration.verifier.verify(jws, as: AppleNotificationPayload.self) {
            $0.signedDate
        }
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw .malformed("the notification has no notificationUUID")
        }
        let data = notification.data
        guard data?.bundleId == configuration.bundleId else {
            throw .rejected("the notification is for bundle \(data?.bundleId ?? "none"), not \(configuration.bundleId)")
        }
        // As Apple's verifier: a missing environment is no environment, never production by default.
        guard let stated = data?.environment, stated.lowercased() == environment else {
            throw .rejected(
                "a \(data?.environment ?? "environment-less") notification was sent to the \(environment) URL")
        }
        if environment == "production" {
            guard let expected = configuration.appAppleId else {
                throw .rejected("production notifications need STICKER_APPLE_APP_ID configured")
            }
            guard data?.appAppleId == expected else {
                throw .rejected(
                    "the notification is for app \(data?.appAppleId.map(String.init) ?? "none"), not \(expected)")
            }
        }
        let type = notification.notificationType ?? "UNKNOWN"
        guard let signedTransaction = data?.signedTransactionInfo else {
            return PurchaseEvent(
                source: .apple, environment: environment, eventId: uuid,
                kind: .ignored(reason: "\(type) carries no transaction"))
        }
        let transaction = try await verifiedTransaction(
            signedTransaction, environment: environment, configuration: configuration)
        let renewal = try await data?.signedRenewalInfo.asyncMap { jws throws(PurchaseError) in
            try await verifiedRenewal(jws, of: transaction, environment: environment, configuration: configuration)
        }
        let reason = [type, notification.subtype].compactMap { $0 }.joined(separator: "/")
        return PurchaseEvent(
            source: .apple, environment: environment, eventId: uuid,
            kind: .snapshot(
                try snapshot(transaction, renewal: renewal, reason: reason, fallbackDate: notification.signedDate)))
    }

    /// A StoreKit 2 transaction a client posted, `{"signedTransaction": "<JWS>"}`: verified and checked the same way,
    /// for the environment it states. Its event id is the transaction and the time it was signed, so a repeated post
    /// of the same transaction is a duplicate.
    public static func clientTransaction(
        body: [UInt8], configuration: AppleConfiguration
    ) async throws(PurchaseError) -> PurchaseEvent {
        guard let posted = try? JSONDecoder().decode(ClientBody.self, from: Data(body)),
            let jws = posted.signedTransaction
        else {
            throw .malformed("the body must be a JSON object with a signedTransaction string")
        }
        let unverified = try await configuration.verifier.verify(jws, as: AppleTransactionPayload.self) {
            $0.signedDate
        }
        guard let environment = unverified.environment?.lowercased() else {
            throw .rejected("the transaction states no environment")
        }
        guard environment == "production" || environment == "sandbox" else {
            throw .rejected("unknown environment \(environment)")
        }
        let transaction = try await verifiedTransaction(jws, environment: environment, configuration: configuration)
        let state = try snapshot(transaction, reason: "CLIENT_TRANSACTION", fallbackDate: nil)
        return PurchaseEvent(
            source: .appleClient, environment: environment,
            eventId: "\(state.transactionId)@\(transaction.signedDate ?? 0)",
            kind: .snapshot(state))
    }

    static func verifiedTransaction(
        _ jws: String, environment: String, configuration: AppleConfiguration
    ) async throws(PurchaseError) -> AppleTransactionPayload {
        let transaction = try await configuration.verifier.verify(jws, as: AppleTransactionPayload.self) {
            $0.signedDate
        }
        guard transaction.bundleId == configuration.bundleId else {
            throw .rejected(
                "the transaction is for bundle \(transaction.bundleId ?? "none"), not \(configuration.bundleId)")
        }
        guard let stated = transaction.environment, stated.lowercased() == environment else {
            throw .rejected(
                "a \(transaction.environment ?? "environment-less") transaction where \(environment) was expected")
        }
        return transaction
    }

    /// The renewal info a notification carries, verified like the transaction and about the same subscription.
    static func verifiedRenewal(
        _ jws: String, of transaction: AppleTransactionPayload, environment: String,
        configuration: AppleConfiguration
    ) async throws(PurchaseError) -> AppleRenewalPayload {
        let renewal = try await configuration.verifier.verify(jws, as: AppleRenewalPayload.self) { $0.signedDate }
        guard renewal.environment?.lowercased() == environment else {
            throw .rejected("the renewal info is not for \(environment)")
        }
        guard renewal.originalTransactionId == transaction.originalTransactionId else {
            throw .malformed("the renewal info is about another subscription than the transaction")
        }
        return renewal
    }

    /// The transaction's state. Access runs to the end of the billing grace period when the renewal info gives one
    /// (Apple is still retrying the payment); an upgraded transaction ends when it was signed (the higher tier's
    /// transaction takes over).
    static func snapshot(
        _ t: AppleTransactionPayload, renewal: AppleRenewalPayload? = nil, reason: String,
        fallbackDate: Int64?
    ) throws(PurchaseError) -> TransactionSnapshot {
        guard let id = t.transactionId, let product = t.productId, let purchased = t.purchaseDate,
            let signed = t.signedDate ?? fallbackDate
        else {
            throw .malformed("the transaction lacks transactionId, productId, purchaseDate or signedDate")
        }
        var expires = t.expiresDate
        if let grace = renewal?.gracePeriodExpiresDate, let end = expires, grace > end { expires = grace }
        if t.isUpgraded == true { expires = min(expires ?? signed, signed) }
        return TransactionSnapshot(
            transactionId: id, originalTransactionId: t.originalTransactionId ?? id, productId: product,
            appAccountToken: t.accountToken, purchasedAt: Date(millis: purchased),
            expiresAt: expires.map(Date.init(millis:)), revokedAt: t.revocationDate.map(Date.init(millis:)),
            asOf: Date(millis: signed), reason: reason)
    }

    struct Envelope: Decodable {
        var signedPayload: String?
    }

    struct ClientBody: Decodable {
        var signedTransaction: String?
    }
}

extension Optional {
    /// `map` for an async, throwing transform.
    func asyncMap<T, E: Error>(_ transform: (Wrapped) async throws(E) -> T) async throws(E) -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
