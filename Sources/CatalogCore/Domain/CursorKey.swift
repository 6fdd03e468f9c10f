import Crypto
import Foundation
import Purchases

/// Signs change cursors: a tag (HMAC-SHA256 cut to 16 bytes) under a key derived from the asset signing key with a
/// label of its own (HKDF), so replicas sharing `STICKER_ASSET_SIGNING_KEY` accept each other's cursors and no cursor
/// tag is an asset URL's signature. A cursor that does not verify is refused unread: a forged one would otherwise cost
/// a change-log read on the primary or a page build.
package struct CursorKey: Sendable {
    /// 128 bits: as much as a forger must guess, for 22 more characters per cursor.
    package static let tagLength = 16
    private static let label = "stickerd change cursor v1"
    private let key: SymmetricKey

    /// The key derived from `signer`'s for `purpose` (change cursors unless told); a random one, good for this
    /// process only, when there is no signer.
    package init(signer: AssetSigner?, purpose: String = Self.label) {
        let secret = signer?.key ?? SymmetricKey(size: .bits256)
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Array(purpose.utf8), outputByteCount: 32)
    }

    /// `payload` followed by its tag.
    package func seal(_ payload: [UInt8]) -> [UInt8] {
        payload + tag(payload)
    }

    /// The payload of `sealed` when its tag verifies (compared in constant time), else nil.
    package func open(_ sealed: [UInt8]) -> [UInt8]? {
        guard sealed.count > Self.tagLength else { return nil }
        let payload = Array(sealed.dropLast(Self.tagLength))
        let difference = zip(tag(payload), sealed.suffix(Self.tagLength)).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) }
        return difference == 0 ? payload : nil
    }

    /// `payload` sealed, as base64url text without padding: a cursor as clients see it.
    package func seal(text payload: [UInt8]) -> String {
        AssetSigner.base64URL(seal(payload))
    }

    /// The payload of a cursor made by `seal(text:)` when its tag verifies, else nil.
    package func open(text: String) -> [UInt8]? {
        Data(base64URL: Substring(text)).flatMap { open(Array($0)) }
    }

    private func tag(_ payload: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: payload, using: key).prefix(Self.tagLength))
    }
}
