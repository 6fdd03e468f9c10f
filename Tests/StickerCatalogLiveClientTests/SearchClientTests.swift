import Foundation
import StickerCatalogClient
import Testing

/// The client's search against a real stickerd: the view's locale and filter reach the service, pages follow, and a
/// refusal is a typed error.
@Suite(.hangLimit) struct SearchClientTests {
    /// A service of its own: SyncTests change theirs as they go.
    static let service = Task { try await LiveService() }

    @Test func searchInTheViewPageByPage() async throws {
        let base = try await Self.service.value.base
        let french = SyncTests.syncing(base, view: CatalogView(locale: Locale(identifier: "fr_FR")))
        let found = try await french.search("chocolat")
        #expect(found.results.map(\.name) == ["ChocolateBar", "ChocolateChip", "DarkChocolate"])
        #expect(found.locale == "fr" && found.results.first?.group.name == "Chocolat")
        #expect(
            found.results.first?.asset?.url.hasPrefix("/v1/assets/") == true && found.results.first?.locked == false)
        // Page by page, every result once.
        var names: [String] = []
        var cursor: String?
        repeat {
            let page = try await french.search("c", limit: 4, after: cursor)
            names += page.results.map(\.name)
            cursor = page.next
        } while cursor != nil && names.count < 50
        let total = try await french.search("c", limit: 100).total
        #expect(names.count == Set(names).count && names.count == total && total > 4)
        // The view's filter applies.
        let chocoholic = SyncTests.syncing(base, view: CatalogView(filter: "chocoholic"))
        #expect(try await chocoholic.search("candy").results.isEmpty)
        #expect(try await french.suggestions("Choc").contains("Chocolat"))
    }

    @Test func aBadQueryIsATypedRefusal() async throws {
        let sync = SyncTests.syncing(try await Self.service.value.base)
        await #expect {
            _ = try await sync.search(String(repeating: "x", count: 101))
        } throws: { error in
            guard case StickerClientError.refused(let status, let code, _) = error else { return false }
            return status == 400 && code == "invalid_parameter"
        }
    }
}
