import Crypto
import Foundation
import JWTKit
import Purchases

/// App Store notifications and transactions minted with the test PKI (`TestPKI`), for bundle `com.example` and app
/// 1234; and Apple's own test vectors (../shared/testdata/appstore), an extra check where that folder is present.
enum AppStore {
    static let bundleId = "com.example"
    static let appId: Int64 = 1234
    static var vectors: URL { TestData.root.appending(path: "appstore") }
    static var vectorsAvailable: Bool { FileManager.default.fileExists(atPath: vectors.appending(path: "certs/testCA.der").path) }

    static func file(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: vectors.appending(path: path)))
    }

    /// One of Apple's signed test files, as the JWS text.
    static func signed(_ name: String) throws -> String {
        String(decoding: try file("mock_signed_data/\(name)"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A webhook body carrying `jws`.
    static func body(_ jws: String) -> [UInt8] {
        Array(#"{"signedPayload":"\#(jws)"}"#.utf8)
    }

    /// Trusts the test PKI's root, and Apple's test root when its vectors are present.
    static func configuration() throws -> AppleConfiguration {
        let roots = [TestPKI.shared.rootDER] + (vectorsAvailable ? [try file("certs/testCA.der")] : [])
        return AppleConfiguration(verifier: try AppleJWSVerifier(roots: roots), bundleId: bundleId, appAppleId: appId)
    }

    /// The x5c chains a minted JWS can carry: Apple's shape, and the ways it can be wrong.
    enum Chain: CaseIterable {
        case valid, leafWithoutOID, intermediateWithoutOID, noRoot

        /// The signing key and the x5c entries, leaf first.
        var parts: (key: P256.Signing.PrivateKey, x5c: [String]) {
            let pki = TestPKI.shared
            return switch self {
            case .valid: (pki.leaf.key, [pki.leaf.x5c, pki.intermediate.x5c, pki.root.x5c])
            case .leafWithoutOID: (pki.leafWithoutOID.key, [pki.leafWithoutOID.x5c, pki.intermediate.x5c, pki.root.x5c])
            case .intermediateWithoutOID:
                (pki.leafUnderIntermediateWithoutOID.key, [pki.leafUnderIntermediateWithoutOID.x5c, pki.intermediateWithoutOID.x5c, pki.root.x5c])
            case .noRoot: (pki.leaf.key, [pki.leaf.x5c, pki.intermediate.x5c])
            }
        }
    }

    /// `payload` signed ES256 by the chain's leaf key, with the chain as x5c. Made by hand: jwt-kit's signer insists on
    /// checking an x5c chain itself, and these tests need chains that do not hold.
    static func mint(_ payload: some Encodable, chain: Chain = .valid) async throws -> String {
        let (key, x5c) = chain.parts
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "typ": "JWT", "x5c": x5c])
        let signingInput = base64URL(header) + "." + base64URL(try JSONEncoder().encode(payload))
        return signingInput + "." + base64URL(try key.signature(for: Data(signingInput.utf8)).rawRepresentation)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A transaction as the App Store signs it.
    struct Transaction: JWTPayload {
        var transactionId: String
        var originalTransactionId: String
        var bundleId = AppStore.bundleId
        static let defaultProduct = "com.example.premium"
        var productId = defaultProduct
        var purchaseDate: Int64
        var expiresDate: Int64?
        var revocationDate: Int64?
        var revocationReason: Int?
        var appAccountToken: String?
        var environment: String? = "Sandbox"
        var type = "Auto-Renewable Subscription"
        var signedDate: Int64
        var isUpgraded: Bool?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    struct Notification: JWTPayload {
        struct Payload: Codable {
            var appAppleId: Int64? = AppStore.appId
            var bundleId = AppStore.bundleId
            var environment: String? = "Sandbox"
            var signedTransactionInfo: String?
            var signedRenewalInfo: String?
        }
        var notificationType: String
        var subtype: String?
        var notificationUUID = UUID().uuidString.lowercased()
        var data: Payload
        var version = "2.0"
        var signedDate: Int64

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A subscription's renewal info as the App Store signs it.
    struct RenewalInfo: JWTPayload {
        var originalTransactionId: String
        var environment = "Sandbox"
        var gracePeriodExpiresDate: Int64?
        var signedDate: Int64

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The body of a minted notification of `type` about `transaction` (signed at the transaction's signedDate).
    static func notification(_ type: String, subtype: String? = nil, _ transaction: Transaction, renewal: RenewalInfo? = nil,
                             uuid: String = UUID().uuidString.lowercased(), chain: Chain = .valid) async throws -> [UInt8] {
        let signedTransaction = try await mint(transaction)
        let signedRenewal: String? = if let renewal { try await mint(renewal) } else { nil }
        let notification = Notification(notificationType: type, subtype: subtype, notificationUUID: uuid,
                                        data: .init(environment: transaction.environment, signedTransactionInfo: signedTransaction,
                                                    signedRenewalInfo: signedRenewal),
                                        signedDate: transaction.signedDate)
        return body(try await mint(notification, chain: chain))
    }
}

/// Milliseconds since 1970 of `date` (now by default), as Apple writes times.
func millis(_ date: Date = Date(), plus seconds: TimeInterval = 0) -> Int64 {
    Int64((date.timeIntervalSince1970 + seconds) * 1000)
}
