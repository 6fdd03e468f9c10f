import Crypto
import Foundation
import JWTKit
import Purchases

/// App Store notifications and transactions minted with the test PKI (`TestPKI`), for bundle `com.example` and app
/// 1234; and Apple's own test vectors (../shared/testdata/appstore), an extra check where that folder is present.
package enum AppStore {
    package static let bundleId = "com.example"
    package static let appId: Int64 = 1234
    package static var vectors: URL { TestData.root.appending(path: "appstore") }
    package static var vectorsAvailable: Bool {
        FileManager.default.fileExists(atPath: vectors.appending(path: "certs/testCA.der").path)
    }

    package static func file(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: vectors.appending(path: path)))
    }

    /// One of Apple's signed test files, as the JWS text.
    package static func signed(_ name: String) throws -> String {
        String(decoding: try file("mock_signed_data/\(name)"), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// A webhook body carrying `jws`.
    package static func body(_ jws: String) -> [UInt8] {
        Array(#"{"signedPayload":"\#(jws)"}"#.utf8)
    }

    /// Trusts the test PKI's root, and Apple's test root when its vectors are present.
    package static func configuration() throws -> AppleConfiguration {
        let roots = [TestPKI.shared.rootDER] + (vectorsAvailable ? [try file("certs/testCA.der")] : [])
        return AppleConfiguration(verifier: try AppleJWSVerifier(roots: roots), bundleId: bundleId, appAppleId: appId)
    }

    /// The x5c chains a minted JWS can carry: Apple's shape, and the ways it can be wrong.
    package enum Chain: CaseIterable {
        case valid, leafWithoutOID, intermediateWithoutOID, noRoot

        /// The signing key and the x5c entries, leaf first.
        package var parts: (key: P256.Signing.PrivateKey, x5c: [String]) {
            let pki = TestPKI.shared
            return switch self {
            case .valid: (pki.leaf.key, [pki.leaf.x5c, pki.intermediate.x5c, pki.root.x5c])
            case .leafWithoutOID:
                (pki.leafWithoutOID.key, [pki.leafWithoutOID.x5c, pki.intermediate.x5c, pki.root.x5c])
            case .intermediateWithoutOID:
                (
                    pki.leafUnderIntermediateWithoutOID.key,
                    [pki.leafUnderIntermediateWithoutOID.x5c, pki.intermediateWithoutOID.x5c, pki.root.x5c]
                )
            case .noRoot: (pki.leaf.key, [pki.leaf.x5c, pki.intermediate.x5c])
            }
        }
    }

    /// `payload` signed ES256 by the chain's leaf key, with the chain as x5c. Made by hand: jwt-kit's signer insists on
    /// checking an x5c chain itself, and these tests need chains that do not hold.
    package static func mint(_ payload: some Encodable, chain: Chain = .valid) async throws -> String {
        let (key, x5c) = chain.parts
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "typ": "JWT", "x5c": x5c])
        let signingInput = base64URL(header) + "." + base64URL(try JSONEncoder().encode(payload))
        return signingInput + "." + base64URL(try key.signature(for: Data(signingInput.utf8)).rawRepresentation)
    }

    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A transaction as the App Store signs it.
    package struct Transaction: JWTPayload {
        package var transactionId: String
        package var originalTransactionId: String
        package var bundleId = AppStore.bundleId
        package static let defaultProduct = "com.example.premium"
        package var productId = defaultProduct
        package var purchaseDate: Int64
        package var expiresDate: Int64?
        package var revocationDate: Int64?
        package var revocationReason: Int?
        package var appAccountToken: String?
        package var environment: String? = "Sandbox"
        package var type = "Auto-Renewable Subscription"
        package var signedDate: Int64
        package var isUpgraded: Bool?

        package func verify(using algorithm: some JWTAlgorithm) async throws {}

        package init(
            transactionId: String, originalTransactionId: String, bundleId: String = AppStore.bundleId,
            productId: String = defaultProduct, purchaseDate: Int64, expiresDate: Int64? = nil,
            revocationDate: Int64? = nil, revocationReason: Int? = nil, appAccountToken: String? = nil,
            environment: String? = "Sandbox", type: String = "Auto-Renewable Subscription", signedDate: Int64,
            isUpgraded: Bool? = nil
        ) {
            (self.transactionId, self.originalTransactionId, self.bundleId) = (
                transactionId, originalTransactionId, bundleId
            )
            (self.productId, self.purchaseDate, self.expiresDate) = (productId, purchaseDate, expiresDate)
            (self.revocationDate, self.revocationReason, self.appAccountToken) = (
                revocationDate, revocationReason, appAccountToken
            )
            (self.environment, self.type, self.signedDate, self.isUpgraded) = (
                environment, type, signedDate, isUpgraded
            )
        }
    }

    package struct Notification: JWTPayload {
        package struct Payload: Codable {
            package var appAppleId: Int64? = AppStore.appId
            package var bundleId = AppStore.bundleId
            package var environment: String? = "Sandbox"
            package var signedTransactionInfo: String?
            package var signedRenewalInfo: String?

            package init(
                appAppleId: Int64? = AppStore.appId, bundleId: String = AppStore.bundleId,
                environment: String? = "Sandbox", signedTransactionInfo: String? = nil,
                signedRenewalInfo: String? = nil
            ) {
                self.appAppleId = appAppleId
                self.bundleId = bundleId
                self.environment = environment
                self.signedTransactionInfo = signedTransactionInfo
                self.signedRenewalInfo = signedRenewalInfo
            }
        }
        package var notificationType: String
        package var subtype: String?
        package var notificationUUID = UUID().uuidString.lowercased()
        package var data: Payload
        package var version = "2.0"
        package var signedDate: Int64

        package func verify(using algorithm: some JWTAlgorithm) async throws {}

        package init(
            notificationType: String, subtype: String? = nil,
            notificationUUID: String = UUID().uuidString.lowercased(), data: Payload, version: String = "2.0",
            signedDate: Int64
        ) {
            self.notificationType = notificationType
            self.subtype = subtype
            self.notificationUUID = notificationUUID
            self.data = data
            self.version = version
            self.signedDate = signedDate
        }
    }

    /// A subscription's renewal info as the App Store signs it.
    package struct RenewalInfo: JWTPayload {
        package var originalTransactionId: String
        package var environment = "Sandbox"
        package var gracePeriodExpiresDate: Int64?
        package var signedDate: Int64

        package func verify(using algorithm: some JWTAlgorithm) async throws {}

        package init(
            originalTransactionId: String, environment: String = "Sandbox", gracePeriodExpiresDate: Int64? = nil,
            signedDate: Int64
        ) {
            self.originalTransactionId = originalTransactionId
            self.environment = environment
            self.gracePeriodExpiresDate = gracePeriodExpiresDate
            self.signedDate = signedDate
        }
    }

    /// The body of a minted notification of `type` about `transaction` (signed at the transaction's signedDate).
    package static func notification(
        _ type: String, subtype: String? = nil, _ transaction: Transaction, renewal: RenewalInfo? = nil,
        uuid: String = UUID().uuidString.lowercased(), chain: Chain = .valid
    ) async throws -> [UInt8] {
        let signedTransaction = try await mint(transaction)
        let signedRenewal: String? = if let renewal { try await mint(renewal) } else { nil }
        let notification = Notification(
            notificationType: type, subtype: subtype, notificationUUID: uuid,
            data: .init(
                environment: transaction.environment, signedTransactionInfo: signedTransaction,
                signedRenewalInfo: signedRenewal),
            signedDate: transaction.signedDate)
        return body(try await mint(notification, chain: chain))
    }
}

/// Milliseconds since 1970 of `date` (now by default), as Apple writes times.
package func millis(_ date: Date = Date(), plus seconds: TimeInterval = 0) -> Int64 {
    Int64((date.timeIntervalSince1970 + seconds) * 1000)
}
