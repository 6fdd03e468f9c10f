import CatalogCore
import Foundation
import Synchronization

/// Tickets for a browser's event stream: `EventSource` cannot send `Authorization`, so a signed-in page asks
/// `POST /v1/me/event-ticket` for one and opens `/v1/events?ticket=...`. A ticket names its user and when the user's
/// token expires (the stream ends then, as with the header), opens a stream within `lifetime` of being made, and opens
/// one stream on a replica: it is spent when used. It is sealed under a key derived from the asset signing key, so
/// replicas sharing `STICKER_ASSET_SIGNING_KEY` accept each other's; a ticket is no token and grants nothing else.
/// The access log never writes a query, so no ticket reaches a log line either.
package final class EventTickets: Sendable {
    /// How long a ticket may wait before it opens a stream.
    package static let lifetime: TimeInterval = 60
    /// Tickets spent and not yet expired that one replica remembers; past it, tickets are refused (503) until some
    /// expire. Each spent ticket opened a stream the hub admitted, so a well-behaved fleet never comes near.
    package static let capacity = 65_536
    private static let version: UInt8 = 1
    private let key: CursorKey
    /// Spent tickets' nonces, with the time each would have expired.
    private let spent = Mutex<[UInt64: UInt32]>([:])

    package init(signer: AssetSigner?) {
        key = CursorKey(signer: signer, purpose: "stickerd event ticket v1")
    }

    /// A ticket for `user`, whose token expires at `tokenExpires`, and when it stops opening streams.
    package func issue(user: String, tokenExpires: Date?, now: Date = Date()) -> (ticket: String, expires: Date) {
        let expires = now.addingTimeInterval(Self.lifetime)
        var payload: [UInt8] = [Self.version]
        payload += Self.bytes(UInt32(clamping: Int(expires.timeIntervalSince1970)))
        payload += Self.bytes(UInt32(clamping: Int((tokenExpires ?? expires).timeIntervalSince1970)))
        withUnsafeBytes(of: UInt64.random(in: .min ... .max)) { payload += $0 }
        payload += Array(user.utf8)
        return (key.seal(text: payload), expires)
    }

    /// The user a ticket names and when their token expires; spends it. A ticket that is malformed, forged, expired
    /// or spent is a 401 `invalid_ticket`.
    package func redeem(_ text: Substring, now: Date = Date()) throws -> UserTokens.Verified {
        guard text.utf8.count <= 1024, let payload = key.open(text: String(text)), payload.count > 17,
            payload[0] == Self.version
        else { throw Self.refusal("This ticket is not one this service made.") }
        let expires = Self.number(payload[1..<5])
        let tokenExpires = Self.number(payload[5..<9])
        let nonce = payload[9..<17].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let seconds = UInt32(clamping: Int(now.timeIntervalSince1970))
        guard seconds < expires, seconds < tokenExpires else {
            throw Self.refusal("This ticket has expired: ask POST /v1/me/event-ticket for another.")
        }
        let outcome: Outcome = spent.withLock { spent in
            if spent.count >= Self.capacity { spent = spent.filter { $0.value > seconds } }
            guard spent.count < Self.capacity else { return .full }
            return spent.updateValue(expires, forKey: nonce) == nil ? .fresh : .spent
        }
        switch outcome {
        case .fresh:
            let user = String(decoding: payload[17...], as: UTF8.self)
            return UserTokens.Verified(user: user, expires: Date(timeIntervalSince1970: TimeInterval(tokenExpires)))
        case .spent: throw Self.refusal("This ticket has opened a stream already: ask for another.")
        case .full:
            var problem = Problem(.serviceUnavailable, "too_many_tickets", "Too many streams opened this minute.")
            problem.headers[.retryAfter] = "5"
            throw problem
        }
    }

    private enum Outcome { case fresh, spent, full }

    /// A byte a ticket's text may hold: base64url's alphabet.
    package static func isTicketByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func refusal(_ detail: String) -> Problem {
        var problem = Problem(.unauthorized, "invalid_ticket", detail)
        problem.headers[.wwwAuthenticate] = #"Bearer realm="stickerd", error="invalid_token""#
        return problem
    }

    private static func bytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
