import Crypto
import Foundation
import Purchases
import SwiftASN1
import TestSupport
import Testing
import X509

/// App Store JWS verified as Apple's library does, against notifications minted with the test PKI and, where
/// ../shared is present, Apple's own test vectors.
@Suite struct AppleVerificationTests {
    static func event(_ body: [UInt8], environment: String = "sandbox") async throws(PurchaseError) -> PurchaseEvent {
        try await AppleNotifications.event(
            body: body, environment: environment, configuration: try! AppStore.configuration())
    }

    static func refusal(_ body: [UInt8], environment: String = "sandbox") async -> PurchaseError? {
        do {
            _ = try await event(body, environment: environment)
            return nil
        } catch { return error }
    }

    @Test(.enabled(if: AppStore.vectorsAvailable, "needs Apple's vectors in ../shared/testdata/appstore"))
    func applesTestNotificationVerifiesAndIsIgnored() async throws {
        let event = try await Self.event(AppStore.body(try AppStore.signed("testNotification")))
        #expect(event.eventId == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        guard case .ignored = event.kind else {
            Issue.record("TEST should have no effect: \(event.kind)")
            return
        }
    }

    @Test(.enabled(if: AppStore.vectorsAvailable, "needs Apple's vectors in ../shared/testdata/appstore"))
    func refusalsOfApplesVectors() async throws {
        let test = try AppStore.signed("testNotification")
        #expect(
            await Self.refusal(AppStore.body(try AppStore.signed("wrongBundleId"))).map(WebhookStatusName.init)
                == .rejected)
        #expect(
            await Self.refusal(AppStore.body(try AppStore.signed("missingX5CHeaderClaim"))).map(WebhookStatusName.init)
                == .unauthorized)
        #expect(
            await Self.refusal(AppStore.body(try AppStore.signed("legacyTransaction"))).map(WebhookStatusName.init)
                == .malformed)
        // The sandbox notification on the production URL.
        #expect(
            await Self.refusal(AppStore.body(test), environment: "production").map(WebhookStatusName.init) == .rejected)
        // One byte of the signature flipped.
        var parts = test.split(separator: ".").map(String.init)
        var signature = Array(parts[2].utf8)
        signature[10] = signature[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        parts[2] = String(decoding: signature, as: UTF8.self)
        #expect(
            await Self.refusal(AppStore.body(parts.joined(separator: "."))).map(WebhookStatusName.init) == .unauthorized
        )
    }

    @Test func aChainAgainstAnotherRootIsRefused() async throws {
        let other = try Self.selfSignedRoot()
        let configuration = AppleConfiguration(
            verifier: try AppleJWSVerifier(roots: [other]), bundleId: AppStore.bundleId, appAppleId: AppStore.appId)
        let transaction = AppStore.Transaction(
            transactionId: "1", originalTransactionId: "1", purchaseDate: millis(), signedDate: millis())
        let minted = try await AppStore.notification("ONE_TIME_CHARGE", transaction)
        #expect(await Self.refusal(minted) == nil, "the test PKI's own root accepts it")
        await #expect(throws: PurchaseError.self) {
            _ = try await AppleNotifications.event(body: minted, environment: "sandbox", configuration: configuration)
        }
        if AppStore.vectorsAvailable {
            await #expect(throws: PurchaseError.self) {
                _ = try await AppleNotifications.event(
                    body: AppStore.body(try AppStore.signed("testNotification")), environment: "sandbox",
                    configuration: configuration)
            }
        }
    }

    @Test func chainsWithoutApplesMarksAreRefused() async throws {
        let transaction = AppStore.Transaction(
            transactionId: "1", originalTransactionId: "1", purchaseDate: millis(), signedDate: millis())
        #expect(
            await Self.refusal(try await AppStore.notification("ONE_TIME_CHARGE", transaction, chain: .valid)) == nil)
        for chain in [AppStore.Chain.leafWithoutOID, .intermediateWithoutOID, .noRoot] {
            let body = try await AppStore.notification("ONE_TIME_CHARGE", transaction, chain: chain)
            #expect(await Self.refusal(body).map(WebhookStatusName.init) == .unauthorized, "\(chain)")
        }
    }

    @Test func certificatesAreValidAtTheSignedDateNotNow() async throws {
        // The test certificates run from 2023-01-05 to 2033-01-01.
        for signed in [Date(timeIntervalSince1970: 1_600_000_000), Date(timeIntervalSince1970: 2_100_000_000)] {
            let transaction = AppStore.Transaction(
                transactionId: "1", originalTransactionId: "1", purchaseDate: millis(signed),
                signedDate: millis(signed))
            #expect(
                await Self.refusal(try await AppStore.notification("ONE_TIME_CHARGE", transaction)).map(
                    WebhookStatusName.init) == .unauthorized)
        }
    }

    @Test func aRememberedChainStillChecksSignatureAndDates() async throws {
        // One configuration, so the first notification leaves its chain in the verifier's memory.
        let configuration = try AppStore.configuration()
        func event(_ body: [UInt8]) async -> PurchaseError? {
            do {
                _ = try await AppleNotifications.event(body: body, environment: "sandbox", configuration: configuration)
                return nil
            } catch { return error }
        }
        let now = Date()
        let transaction = AppStore.Transaction(
            transactionId: "1", originalTransactionId: "1", purchaseDate: millis(now), signedDate: millis(now))
        #expect(await event(try await AppStore.notification("ONE_TIME_CHARGE", transaction)) == nil)
        // The same chain with a broken signature, or at a date the chain is not valid, is refused all the same.
        var parts = String(decoding: try await AppStore.notification("ONE_TIME_CHARGE", transaction), as: UTF8.self)
            .split(separator: ".").map(String.init)
        parts[1] = parts[1].replacingOccurrences(of: "a", with: "b")
        #expect(await event(Array(parts.joined(separator: ".").utf8)) != nil)
        var late = transaction
        late.signedDate = millis(Date(timeIntervalSince1970: 2_100_000_000))
        #expect(
            await event(try await AppStore.notification("ONE_TIME_CHARGE", late)).map(WebhookStatusName.init)
                == .unauthorized)
    }

    @Test func aMintedPurchaseDecodesIntoASnapshot() async throws {
        let token = UUID()
        let transaction = AppStore.Transaction(
            transactionId: "2000", originalTransactionId: "1000", purchaseDate: 1_800_000_000_000,
            expiresDate: 1_802_592_000_000, appAccountToken: token.uuidString, signedDate: 1_800_000_001_000)
        let event = try await Self.event(
            try await AppStore.notification("SUBSCRIBED", subtype: "INITIAL_BUY", transaction))
        guard case .snapshot(let snapshot) = event.kind else {
            Issue.record("no snapshot")
            return
        }
        #expect(snapshot.transactionId == "2000" && snapshot.originalTransactionId == "1000")
        #expect(snapshot.appAccountToken == token && snapshot.reason == "SUBSCRIBED/INITIAL_BUY")
        #expect(snapshot.asOf == Date(timeIntervalSince1970: 1_800_000_001) && snapshot.revokedAt == nil)
    }

    @Test func appAccountTokenAbsentNullEmptyOrZeroMeansNone() throws {
        for field in [
            "", #","appAccountToken":null"#, #","appAccountToken":"""#,
            #","appAccountToken":"00000000-0000-0000-0000-000000000000""#,
        ] {
            let json = #"{"transactionId":"1","purchaseDate":1,"notificationTypeFromTheFuture":"X"\#(field)}"#
            let payload = try JSONDecoder().decode(AppleTransactionPayload.self, from: Data(json.utf8))
            #expect(payload.accountToken == nil, "\(field)")
        }
        let unknown = try JSONDecoder().decode(
            AppleNotificationPayload.self, from: Data(#"{"notificationType":"SOMETHING_NEW","signedDate":1}"#.utf8))
        #expect(unknown.notificationType == "SOMETHING_NEW")
    }

    /// A P-256 root nobody else trusts.
    static func selfSignedRoot() throws -> [UInt8] {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Not Apple") }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 0),
            notValidAfter: Date(timeIntervalSince1970: 4_000_000_000), issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            },
            issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}

/// A refusal's kind, for comparing without its text.
enum WebhookStatusName: Equatable {
    case malformed, unauthorized, rejected

    init(_ error: PurchaseError) {
        switch error {
        case .malformed: self = .malformed
        case .unauthorized: self = .unauthorized
        case .rejected: self = .rejected
        }
    }
}
