import Crypto
import Foundation
import Purchases

/// Signs the URLs of premium images (`?exp=&sig=`, HMAC-SHA256 with `STICKER_ASSET_SIGNING_KEY`) and checks them.
/// Expiries fall on window boundaries: every manifest built in one window carries the same URLs (so its ETag holds
/// still), and a URL stays valid between one and two lifetimes after it was handed out.
package struct AssetSigner: Sendable {
    /// The secret itself: read only inside CatalogCore (`CursorKey` derives its key from it).
    let key: SymmetricKey
    /// The window, in seconds.
    package let lifetime: Int64

    package init(key: [UInt8], lifetime: Int64) {
        self.key = SymmetricKey(data: key)
        self.lifetime = max(1, lifetime)
    }

    /// Why a request for a premium image is refused, or nil when its signature holds.
    package enum Refusal: Sendable, Equatable {
        case missing, expired, invalid
    }

    /// The expiry of URLs handed out at `now`: the end of the next window.
    package func expiry(at now: Date) -> Int64 {
        (Int64(now.timeIntervalSince1970) / lifetime + 2) * lifetime
    }

    /// `exp=…&sig=…` for the image `sha256` until `expires`.
    package func query(sha256: String, expires: Int64) -> String {
        "exp=\(expires)&sig=\(Self.base64URL(mac(sha256: sha256, expires: expires)))"
    }

    /// Checks the `exp` and `sig` a request carries for image `sha256` at `now`; compared in constant time.
    package func check(sha256: String, exp: String?, sig: String?, now: Date) -> Refusal? {
        guard let exp, let sig else { return .missing }
        guard let expires = Int64(exp), let signature = Self.bytes(base64URL: sig),
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: message(sha256: sha256, expires: expires), using: key)
        else {
            return .invalid
        }
        return Double(expires) > now.timeIntervalSince1970 ? nil : .expired
    }

    package func mac(sha256: String, expires: Int64) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message(sha256: sha256, expires: expires), using: key))
    }

    package func message(sha256: String, expires: Int64) -> [UInt8] {
        Array("\(sha256).\(expires)".utf8)
    }

    package static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    package static func bytes(base64URL text: String) -> [UInt8]? {
        guard text.utf8.count <= 64 else { return nil }
        return Data(base64URL: Substring(text)).map(Array.init)
    }
}
