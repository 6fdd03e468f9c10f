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
    public static func event(body: [UInt8], environment: String, configuration: AppleConfiguration) async throws(PurchaseError) -> PurchaseEvent {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)), let jws = envelope.signedPayload else {
            throw .malformed("the body must be a JSON object with a signedPayload string")
        }
        let notification = try await configuration.verifier.verify(jws, as: AppleNotificationPayload.self) { $0.signedDate }
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else { throw .malformed("the notification has no notificationUUID") }
        let data = notification.data
        guard data?.bundleId == configuration.bundleId else {
            throw .rejected("the notification is for bundle \(data?.bundleId ?? "none"), not \(configuration.bundleId)")
        }
        if let stated = data?.environment, stated.lowercased() != environment {
            throw .rejected("a \(stated) notification was sent to the \(environment) URL")
        }
        if environment == "production" {
            guard let expected = configuration.appAppleId else { throw .rejected("production notifications need STICKER_APPLE_APP_ID configured") }
            guard data?.appAppleId == expected else {
                throw .rejected("the notification is for app \(data?.appAppleId.map(String.init) ?? "none"), not \(expected)")
            }
        }
        let type = notification.notificationType ?? "UNKNOWN"
        guard let signedTransaction = data?.signedTransactionInfo else {
            return PurchaseEvent(source: .apple, environment: environment, eventId: uuid, kind: .ignored(reason: "\(type) carries no transaction"))
        }
        let transaction = try await verifiedTransaction(signedTransaction, environment: environment, configuration: configuration)
        let reason = [type, notification.subtype].compactMap { $0 }.joined(separator: "/")
        return PurchaseEvent(source: .apple, environment: environment, eventId: uuid,
                             kind: .snapshot(try snapshot(transaction, reason: reason, fallbackDate: notification.signedDate)))
    }

    /// A StoreKit 2 transaction a client posted, `{"signedTransaction": "<JWS>"}`: verified and checked the same way,
    /// for the environment it states. Its event id is the transaction and the time it was signed, so a repeated post
    /// of the same transaction is a duplicate.
    public static func clientTransaction(body: [UInt8], configuration: AppleConfiguration) async throws(PurchaseError) -> PurchaseEvent {
        guard let posted = try? JSONDecoder().decode(ClientBody.self, from: Data(body)), let jws = posted.signedTransaction else {
            throw .malformed("the body must be a JSON object with a signedTransaction string")
        }
        let unverified = try await configuration.verifier.verify(jws, as: AppleTransactionPayload.self) { $0.signedDate }
        let environment = unverified.environment?.lowercased() ?? "production"
        guard environment == "production" || environment == "sandbox" else { throw .rejected("unknown environment \(environment)") }
        let transaction = try await verifiedTransaction(jws, environment: environment, configuration: configuration)
        let state = try snapshot(transaction, reason: "CLIENT_TRANSACTION", fallbackDate: nil)
        return PurchaseEvent(source: .appleClient, environment: environment, eventId: "\(state.transactionId)@\(transaction.signedDate ?? 0)",
                             kind: .snapshot(state))
    }

    static func verifiedTransaction(_ jws: String, environment: String, configuration: AppleConfiguration) async throws(PurchaseError) -> AppleTransactionPayload {
        let transaction = try await configuration.verifier.verify(jws, as: AppleTransactionPayload.self) { $0.signedDate }
        guard transaction.bundleId == configuration.bundleId else {
            throw .rejected("the transaction is for bundle \(transaction.bundleId ?? "none"), not \(configuration.bundleId)")
        }
        if let stated = transaction.environment, stated.lowercased() != environment {
            throw .rejected("a \(stated) transaction in a \(environment) notification")
        }
        return transaction
    }

    static func snapshot(_ t: AppleTransactionPayload, reason: String, fallbackDate: Int64?) throws(PurchaseError) -> TransactionSnapshot {
        guard let id = t.transactionId, let product = t.productId, let purchased = t.purchaseDate,
              let signed = t.signedDate ?? fallbackDate else {
            throw .malformed("the transaction lacks transactionId, productId, purchaseDate or signedDate")
        }
        return TransactionSnapshot(transactionId: id, originalTransactionId: t.originalTransactionId ?? id, productId: product,
                                   appAccountToken: t.accountToken, purchasedAt: Date(millis: purchased),
                                   expiresAt: t.expiresDate.map(Date.init(millis:)), revokedAt: t.revocationDate.map(Date.init(millis:)),
                                   asOf: Date(millis: signed), reason: reason)
    }

    struct Envelope: Decodable {
        var signedPayload: String?
    }

    struct ClientBody: Decodable {
        var signedTransaction: String?
    }
}
