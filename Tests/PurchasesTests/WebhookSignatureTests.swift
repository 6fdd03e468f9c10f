import Foundation
import Purchases
import TestSupport
import Testing

/// The generic webhook's signature (window on both sides, rotation, several v1) and RevenueCat's events.
@Suite struct WebhookSignatureTests {
    static let body = Array(
        #"{"id":"e1","type":"purchase","userId":"u1","productId":"premium","transactionId":"t1","occurredAt":"2027-01-01T00:00:00Z"}"#
            .utf8)
    static let (old, new) = (Array("old-secret-0123456789".utf8), Array("new-secret-0123456789".utf8))
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func verify(_ header: String?, secrets: [[UInt8]] = [old, new], body: [UInt8] = body) -> Bool {
        (try? SignedWebhook.verify(header: header, body: body, secrets: secrets, now: now, window: 300)) != nil
    }

    @Test func theWindowHoldsOnBothSides() {
        let t = Int64(Self.now.timeIntervalSince1970)
        for (offset, accepted) in [
            (0, true), (-300, true), (300, true), (-301, false), (301, false), (-86_400, false), (86_400, false),
        ] {
            let header = SignedWebhook.signatureHeader(body: Self.body, secret: Self.old, at: t + Int64(offset))
            #expect(Self.verify(header) == accepted, "offset \(offset)")
        }
    }

    @Test func anyConfiguredSecretAndAnyV1MaySign() {
        let t = Int64(Self.now.timeIntervalSince1970)
        let byNew = SignedWebhook.signatureHeader(body: Self.body, secret: Self.new, at: t)
        #expect(Self.verify(byNew))
        #expect(!Self.verify(byNew, secrets: [Self.old]))
        // The sender signs with both while rotating: a v1 that matches anywhere in the header is enough.
        let bogus = String(repeating: "ab", count: 32)
        #expect(Self.verify("t=\(t),v1=\(bogus),v1=" + byNew.split(separator: "=").last!))
    }

    @Test func tamperedOrMalformedHeadersAreRefused() {
        let t = Int64(Self.now.timeIntervalSince1970)
        let header = SignedWebhook.signatureHeader(body: Self.body, secret: Self.old, at: t)
        #expect(!Self.verify(header, body: Self.body + [0x20]))
        #expect(!Self.verify(header.replacingOccurrences(of: "t=\(t)", with: "t=\(t + 1)")))
        for bad in [nil, "", "v1=00", "t=\(t)", "t=x,v1=zz", "t=\(t),v1=\(String(repeating: "0", count: 63))"] {
            #expect(!Self.verify(bad), "\(bad ?? "nil")")
        }
        #expect(!Self.verify(header, secrets: []))
    }

    /// Before the bound, a header of 1,150 `v1` cost 1,150 HMACs of the body: it is now refused unread, even when one
    /// of its entries is right, and so is any header over 1 KiB.
    @Test func aHeaderWithTooManyEntriesOrTooLongIsRefusedEvenWithTheRightSignature() {
        let t = Int64(Self.now.timeIntervalSince1970)
        let header = SignedWebhook.signatureHeader(body: Self.body, secret: Self.new, at: t)
        let bogus = ",v1=" + String(repeating: "ab", count: 32)
        #expect(Self.verify(header + String(repeating: bogus, count: 7)))
        #expect(throws: PurchaseError.unauthorized("Sticker-Signature has more than 8 v1 entries")) {
            try SignedWebhook.verify(
                header: header + String(repeating: bogus, count: 8), body: Self.body, secrets: [Self.old, Self.new],
                now: Self.now, window: 300)
        }
        #expect(!Self.verify(header + String(repeating: bogus, count: 1_150)))
        let padded = header + ",x=" + String(repeating: "y", count: 1024 - header.utf8.count - 3)
        #expect(Self.verify(padded))
        #expect(!Self.verify(padded + "y"))
        #expect(throws: PurchaseError.unauthorized("Sticker-Signature is longer than 1024 bytes")) {
            try SignedWebhook.verify(
                header: padded + "y", body: Self.body, secrets: [Self.new], now: Self.now, window: 300)
        }
    }

    @Test func genericEventsMapToSnapshots() throws {
        let event = try SignedWebhook.event(body: Self.body).checked()
        guard case .snapshot(let snapshot) = event.kind else {
            Issue.record("\(event.kind)")
            return
        }
        #expect(
            snapshot.userId == "u1" && snapshot.revokedAt == nil && snapshot.expiresAt == nil && snapshot.statesExpiry)
        let refund = try SignedWebhook.event(
            body: Array(
                String(decoding: Self.body, as: UTF8.self).replacingOccurrences(of: "purchase", with: "refund").utf8))
        guard case .snapshot(let revoked) = refund.kind else {
            Issue.record("\(refund.kind)")
            return
        }
        #expect(revoked.revokedAt != nil && !revoked.statesExpiry)
        #expect(throws: PurchaseError.self) {
            try SignedWebhook.event(body: Array(#"{"id":"x","type":"purchase"}"#.utf8))
        }
        let unknown = try SignedWebhook.event(body: Array(#"{"id":"x","type":"chargeback_v2"}"#.utf8))
        #expect(unknown.kind == .ignored(reason: "chargeback_v2 has no effect"))
    }

    static func revenueCat(_ type: String, _ extra: String = "") -> [UInt8] {
        Array(
            """
            {"api_version":"1.0","event":{"id":"rc-\(type)","type":"\(type)","app_user_id":"alice","original_app_user_id":"alice",
            "aliases":["alice"],"product_id":"premium","transaction_id":"rt1","original_transaction_id":"rt1",
            "purchased_at_ms":1800000000000,"expiration_at_ms":1802592000000,"event_timestamp_ms":1800000500000,
            "environment":"SANDBOX"\(extra)}}
            """.utf8)
    }

    @Test func revenueCatRefundsAreCancellationsByCustomerSupport() throws {
        func revoked(_ body: [UInt8]) throws -> Bool? {
            guard case .snapshot(let s) = try RevenueCat.event(body: body).kind else { return nil }
            return s.revokedAt != nil
        }
        #expect(try revoked(Self.revenueCat("CANCELLATION", #","cancel_reason":"CUSTOMER_SUPPORT""#)) == true)
        #expect(try revoked(Self.revenueCat("CANCELLATION", #","cancel_reason":"UNSUBSCRIBE""#)) == false)
        #expect(try revoked(Self.revenueCat("INITIAL_PURCHASE")) == false)
        #expect(try RevenueCat.event(body: Self.revenueCat("TEST")).kind == .ignored(reason: "TEST has no effect"))
        #expect(
            try RevenueCat.event(body: Self.revenueCat("SOME_FUTURE_TYPE")).kind
                == .ignored(reason: "SOME_FUTURE_TYPE has no effect"))
        let transfer = try RevenueCat.event(
            body: Self.revenueCat("TRANSFER", #","transferred_from":["alice"],"transferred_to":["bob"]"#))
        #expect(transfer.kind == .transfer(from: ["alice"], to: ["bob"]) && transfer.environment == "sandbox")
        #expect(RevenueCat.isAuthorized("Bearer rc-secret", expected: "Bearer rc-secret"))
        #expect(
            !RevenueCat.isAuthorized("Bearer rc-secreT", expected: "Bearer rc-secret")
                && !RevenueCat.isAuthorized(nil, expected: "x"))
    }
}
