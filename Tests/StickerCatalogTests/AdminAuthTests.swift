import Hummingbird
import HummingbirdTesting
import Testing
@testable import StickerCatalog

@Suite("Admin authentication")
struct AdminAuthTests {
    @Test("Admin routes answer 401 problems without a valid bearer token")
    func refused() async throws {
        try await withApp { client, _ in
            for headers: HTTPFields in [[:], [.authorization: "Bearer wrong"], [.authorization: "Basic \(adminToken)"], [.authorization: "Bearer "]] {
                let response = try await client.execute(uri: "/v1/admin/groups", method: .get, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.problemCode == "unauthorized")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
        }
    }

    @Test("The bootstrap token and stored tokens are accepted; a stored token is kept only as a digest")
    func accepted() async throws {
        try await withApp { client, db in
            #expect(try await client.execute(uri: "/v1/admin/groups", method: .get, headers: admin).status == .ok)
            let (token, digest) = makeAdminToken()
            let catalog = PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
            try await catalog.createAdminToken(name: "ci", digest: digest)
            let response = try await client.execute(uri: "/v1/admin/groups", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(response.status == .ok)
            #expect(token.hasPrefix("stk_") && token.count > 40)
            #expect(try await db.count("SELECT count(*) FROM admin_tokens WHERE name = 'ci' AND token_sha256 = sha256('\(token)'::bytea)") == 1)
        }
    }
}
