import CatalogApp
import CatalogCore
import CatalogHTTP
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// What a refusal names, and what an export guards: the words clients and admins act on.
@Suite struct ProblemWordingTests {
    @Test func aBadFactNamesTheHeaderOrTheParameterItCameIn() async throws {
        try await Offline.app(ports: ManifestRouteTests.ports, options: ManifestRouteTests.options).test(.router) {
            client in
            let header = try await client.execute(
                uri: "/v1/manifest", method: .get, headers: [HTTPField.Name("Sticker-Platform")!: "iOS 17"])
            #expect(header.status == .badRequest && header.json["code"] as? String == "invalid_parameter")
            #expect(
                (header.json["detail"] as? String)?.hasPrefix("Header 'Sticker-Platform' must be") == true,
                "\(header.json)")
            let query = try await client.execute(uri: "/v1/manifest?platform=iOS", method: .get)
            #expect((query.json["detail"] as? String)?.hasPrefix("Query parameter 'platform' must be") == true)
        }
    }

    @Test(arguments: ["=1+1", "=\u{301}1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
    func aNameASpreadsheetWouldRunIsQuoted(name: String) {
        #expect(UsageStats.cell(name).hasPrefix("'") || UsageStats.cell(name).hasPrefix("\"'"))
    }

    @Test func anOrdinaryNameGoesAsItIs() {
        #expect(UsageStats.cell("Caramel") == "Caramel" && UsageStats.cell("é=") == "é=")
        #expect(UsageStats.cell("a,b") == "\"a,b\"")
    }
}
