import CatalogCore
import CatalogSearch
import CatalogServices
import Foundation
import Logging
import TestSupport
import Testing

/// Search keeps its matches by the folded query: a query typed with other marks or case, or asked with another page
/// size, is matched once per snapshot (it was matched again for each raw text and `limit`). No database.
@Suite struct SearchMatchCacheTests {
    @Test("Marks, case and page sizes share one matching; another query is matched anew")
    func normalisedBeforeCaching() async throws {
        // Setup
        let manifests = ManifestService(
            reader: SnapshotReader(SampleCatalog.snapshot(revision: 4)), revision: CatalogRevision(),
            linker: AssetLinker(publicBaseURL: nil))
        let search = SearchService(manifests: manifests, capacity: 1 << 20, logger: Logger(label: "test"))
        // Action
        var totals: [Int] = []
        for (q, limit) in [("Crème", "20"), ("creme", "20"), ("CRE\u{300}ME", "21"), ("crème", "50"), ("creme ", "7")] {
            let body = try await search.results(SearchRequest(parameters: ["q": q, "limit": limit]), viewer: .anyone)
            let json =
                try JSONSerialization.jsonObject(with: Data(body.identity.bytes.readableBytesView)) as? [String: Any]
            totals.append(json?["total"] as? Int ?? -1)
        }
        // Check
        #expect(search.matchesMade == 1)
        #expect(Set(totals).count == 1)
        _ = try await search.results(SearchRequest(parameters: ["q": "caramel"]), viewer: .anyone)
        #expect(search.matchesMade == 2)
    }
}
