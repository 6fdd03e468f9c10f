import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import StickerCatalogClient
import TestSupport
import Testing

/// The client package's in-app purchase path against a live service, with StoreKit transactions signed by the test PKI
/// (`TestPKI`, as Apple signs them): the group unlocks at once, before any notification from Apple.
@Suite struct ClientPurchaseTests {
    @Test(.hangLimit) func anAcknowledgedTransactionUnlocksItsGroupInTheRunningFollowAndAgainIsHarmless() async throws {
        try await withApp(demo: true, live: true, options: try await Purchasing.options()) { client, _ in
            // Setup: chocolate is premium; zoe's app has synced it locked.
            let port = try #require(client.port)
            let product = AppStore.Transaction.defaultProduct
            try await ChangeFeedTests.patch(client, "groups/chocolate", ["productId": product])
            let token = String(
                try #require(try await Purchasing.user("zoe")[.authorization]).dropFirst("Bearer ".count))
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appending(
                path: "client-purchase-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let sync = StickerSync(
                service: URL(string: "http://127.0.0.1:\(port)")!, folder: LocalCatalog(directory: folder),
                credentials: .token(token))
            let following = Task { await sync.follow() }
            defer { following.cancel() }
            for await snapshot in sync.snapshots where snapshot != nil { break }
            let before = await sync.snapshot
            #expect(before?.groups.first { $0.id == "chocolate" }?.locked == true)
            // Action: StoreKit buys with the token the service gave, and the app hands over the signed transaction.
            let accountToken = try await sync.appAccountToken()
            let now = Date()
            let transaction = AppStore.Transaction(
                transactionId: "700", originalTransactionId: "700", purchaseDate: millis(now),
                expiresDate: millis(now, plus: 86_400),
                appAccountToken: accountToken.uuidString.lowercased(), signedDate: millis(now))
            let signed = try await AppStore.mint(transaction)
            try await sync.acknowledge(signedTransaction: signed)
            // Check: the service holds it when the call returns; the running follow() unlocks the group within seconds.
            #expect(try await Purchasing.held(client, try await Purchasing.user("zoe")) == [product])
            var unlocked: StickerCatalogClient.ManifestGroup?
            for await snapshot in sync.snapshots {
                if let group = snapshot?.groups.first(where: { $0.id == "chocolate" }), !group.locked {
                    unlocked = group
                    break
                }
            }
            let chocolate = try #require(unlocked)
            #expect(!chocolate.stickers.isEmpty)
            #expect(
                chocolate.stickers.allSatisfy {
                    FileManager.default.fileExists(atPath: sync.folder.fileURL(for: $0.asset).path)
                })
            // Action: a restore on a new install posts the same transaction again (follow stopped first, so the sync
            // below is one of its own, not one of follow's it would join).
            following.cancel()
            await following.value
            try await sync.acknowledge(signedTransaction: signed)
            // Check: nothing changes.
            #expect(try await sync.sync().changed == false)
            #expect(try await Purchasing.held(client, try await Purchasing.user("zoe")) == [product])
            // A transaction signed by anyone else is refused with the service's problem code.
            let forged = await #expect(throws: StickerClientError.self) {
                try await sync.acknowledge(signedTransaction: try await AppStore.mint(transaction, chain: .noRoot))
            }
            if case .refused(let status, _, _) = forged {
                #expect(status == 401 || status == 400)
            } else {
                Issue.record("\(String(describing: forged))")
            }
        }
    }
}
