import Crypto
import Foundation

/// The webhook any payment backend can send: `Sticker-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
/// t + "." + raw body)>`, several `v1` allowed and several secrets accepted (rotation), within a window on both sides
/// of now. Body: `{"id", "type", "userId", "productId", "transactionId", "occurredAt", "expiresAt"?}`.
public enum SignedWebhook {
    /// The longest `Sticker-Signature` read: a `t` and eight `v1` fit in 600 bytes.
    public static let maxHeaderBytes = 1024
    /// The most `v1` entries read: a sender signs with one secret, or two while rotating.
    public static let maxSignatures = 8

    /// Refuses a header over `maxHeaderBytes` or with more than `maxSignatures` entries before any HMAC, then computes
    /// one HMAC per secret and compares it with each entry: what an unauthenticated sender can cost stays bounded.
    public static func verify(
        header: String?, body: [UInt8], secrets: [[UInt8]], now: Date, window: TimeInterval
    ) throws(PurchaseError) {
        guard !secrets.isEmpty else {
            throw .unauthorized("the generic webhook is not configured (STICKER_WEBHOOK_SECRETS)")
        }
        guard let header else { throw .unauthorized("no Sticker-Signature header") }
        guard header.utf8.count <= maxHeaderBytes else {
            throw .unauthorized("Sticker-Signature is longer than \(maxHeaderBytes) bytes")
        }
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        var entries = 0
        for item in header.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "t": timestamp = Int64(pair[1])
            case "v1":
                entries += 1
                guard entries <= maxSignatures else {
                    throw .unauthorized("Sticker-Signature has more than \(maxSignatures) v1 entries")
                }
                if let bytes = hex(pair[1]), bytes.count == 32 { signatures.append(bytes) }
            default: break
            }
        }
        guard let timestamp, !signatures.isEmpty else { throw .unauthorized("Sticker-Signature needs t= and v1=") }
        guard abs(now.timeIntervalSince1970 - Double(timestamp)) <= window else {
            throw .unauthorized("the signature's timestamp is more than \(Int(window)) s from now")
        }
        for secret in secrets {
            let code = authenticationCode(body: body, secret: secret, at: timestamp)
            // swift-crypto's == between a code and bytes compares in constant time.
            if signatures.contains(where: { code == $0 }) { return }
        }
        throw .unauthorized("no v1 signature matches")
    }

    public static func event(body: [UInt8]) throws(PurchaseError) -> PurchaseEvent {
        guard let event = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            throw .malformed("the body is not the expected JSON")
        }
        guard let id = event.id, !id.isEmpty, let type = event.type else {
            throw .malformed("the event has no id or type")
        }
        let environment = event.environment ?? "production"
        guard environment == "production" || environment == "sandbox" else {
            throw .malformed("environment must be production or sandbox")
        }
        let known = ["purchase", "renewal", "refund", "refund_reversed", "revoke", "expire"]
        guard known.contains(type) else {
            return PurchaseEvent(
                source: .generic, environment: environment, eventId: id, kind: .ignored(reason: "\(type) has no effect")
            )
        }
        guard let user = event.userId, !user.isEmpty, let product = event.productId,
            let transaction = event.transactionId,
            let occurred = event.occurredAt?.date
        else {
            throw .malformed("a \(type) event needs userId, productId, transactionId and occurredAt")
        }
        let expires = event.expiresAt?.date
        // Purchases and renewals say the whole period (no expiresAt: it never expires); an expiry says when it ended;
        // refunds, revocations and reversals say nothing of the period unless they carry expiresAt.
        let statesExpiry = ["purchase", "renewal", "expire"].contains(type) || event.expiresAt != nil
        return PurchaseEvent(
            source: .generic, environment: environment, eventId: id,
            kind: .snapshot(
                TransactionSnapshot(
                    transactionId: transaction, originalTransactionId: transaction, productId: product, userId: user,
                    purchasedAt: occurred,
                    expiresAt: type == "expire" ? (expires ?? occurred) : expires, statesExpiry: statesExpiry,
                    revokedAt: ["refund", "revoke"].contains(type) ? occurred : nil, asOf: occurred, reason: type)))
    }

    /// The header a sender computes, for tests and for senders written in Swift.
    public static func signatureHeader(body: [UInt8], secret: [UInt8], at timestamp: Int64) -> String {
        "t=\(timestamp),v1="
            + authenticationCode(body: body, secret: secret, at: timestamp).map { String(format: "%02x", $0) }.joined()
    }

    /// HMAC-SHA256 of `t + "." + body`, without copying the body.
    static func authenticationCode(
        body: [UInt8], secret: [UInt8], at timestamp: Int64
    ) -> HashedAuthenticationCode<SHA256> {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Array("\(timestamp).".utf8))
        hmac.update(data: body)
        return hmac.finalize()
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }

    struct Body: Decodable {
        var id: String?
        var type: String?
        var userId: String?
        var productId: String?
        var transactionId: String?
        var occurredAt: Instant?
        var expiresAt: Instant?
        var environment: String?
    }

    /// A time as ISO 8601 text or Unix seconds.
    struct Instant: Decodable {
        let date: Date?

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let seconds = try? c.decode(Double.self) {
                date = seconds.isFinite ? Date(timeIntervalSince1970: seconds) : nil
            } else if let text = try? c.decode(String.self) {
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
            } else {
                date = nil
            }
        }
    }
}
