import Crypto
import Foundation
import JWTKit
import Purchases

/// Apple's test CA, keys and signed notifications (../shared/testdata/appstore), and notifications minted with the
/// test leaf key, for bundle `com.example` and app 1234.
enum AppStore {
    static let bundleId = "com.example"
    static let appId: Int64 = 1234
    static var root: URL { TestData.root.appending(path: "appstore") }
    static var available: Bool { FileManager.default.fileExists(atPath: root.appending(path: "certs/testCA.der").path) }

    static func file(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appending(path: path)))
    }

    /// One of Apple's signed test files, as the JWS text.
    static func signed(_ name: String) throws -> String {
        String(decoding: try file("mock_signed_data/\(name)"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A webhook body carrying `jws`.
    static func body(_ jws: String) -> [UInt8] {
        Array(#"{"signedPayload":"\#(jws)"}"#.utf8)
    }

    static func configuration(root: String = "certs/testCA.der") throws -> AppleConfiguration {
        AppleConfiguration(verifier: try AppleJWSVerifier(roots: [try file(root)]), bundleId: bundleId, appAppleId: appId)
    }

    /// The x5c entry of a PEM certificate: its DER in plain base64.
    static func x5c(_ pem: String) throws -> String {
        // The files hold openssl's text dump first, then the PEM block.
        let lines = String(decoding: try file("certs/\(pem)"), as: UTF8.self).split(separator: "\n")
        return lines.drop { !$0.hasPrefix("-----BEGIN") }.dropFirst().prefix { !$0.hasPrefix("-----END") }.joined()
    }

    static let validChain = ["testLeaf.pem", "testIntermediate.pem", "testCA.pem"]

    /// `payload` signed ES256 by the test leaf key, with `chain` (PEM files, leaf first) as x5c. Made by hand:
    /// jwt-kit's signer insists on checking an x5c chain itself, and these tests need chains that do not hold.
    static func mint(_ payload: some Encodable, chain: [String] = validChain) async throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: String(decoding: try file("certs/testLeaf.key"), as: UTF8.self))
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "typ": "JWT", "x5c": try chain.map(x5c)])
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
        var environment = "Sandbox"
        var type = "Auto-Renewable Subscription"
        var signedDate: Int64

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    struct Notification: JWTPayload {
        struct Payload: Codable {
            var appAppleId: Int64? = AppStore.appId
            var bundleId = AppStore.bundleId
            var environment = "Sandbox"
            var signedTransactionInfo: String?
        }
        var notificationType: String
        var subtype: String?
        var notificationUUID = UUID().uuidString.lowercased()
        var data: Payload
        var version = "2.0"
        var signedDate: Int64

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The body of a minted notification of `type` about `transaction` (signed at the transaction's signedDate).
    static func notification(_ type: String, subtype: String? = nil, _ transaction: Transaction, uuid: String = UUID().uuidString.lowercased(),
                             chain: [String] = validChain) async throws -> [UInt8] {
        let signedTransaction = try await mint(transaction)
        let notification = Notification(notificationType: type, subtype: subtype, notificationUUID: uuid,
                                        data: .init(environment: transaction.environment, signedTransactionInfo: signedTransaction),
                                        signedDate: transaction.signedDate)
        return body(try await mint(notification, chain: chain))
    }
}

/// Milliseconds since 1970 of `date` (now by default), as Apple writes times.
func millis(_ date: Date = Date(), plus seconds: TimeInterval = 0) -> Int64 {
    Int64((date.timeIntervalSince1970 + seconds) * 1000)
}
