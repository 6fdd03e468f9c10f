import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The admin console as the binary serves it: every file it references is there, nothing inline that the
/// Content-Security-Policy would block, strong ETags, and the preview route it uses. scripts/browser-test.sh drives
/// it in Chromium.
@Suite struct ConsoleTests {
    /// Every console file, fetched.
    static func fetch(
        _ client: some TestClientProtocol, _ path: String, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await client.execute(uri: path, method: .get, headers: headers)
    }

    @Test func theConsoleIsServedFromTheBinaryWithAStrictPolicyAndStrongETags() async throws {
        try await withApp { client, _ in
            let page = try await Self.fetch(client, "/admin")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(
                policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'")
                    && !policy.contains("unsafe"))
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            let etag = try #require(page.headers[.eTag])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            let again = try await Self.fetch(client, "/admin", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            // The same bytes under their own name, with the same tag.
            #expect(try await Self.fetch(client, "/admin/index.html").headers[.eTag] == etag)
        }
    }

    @Test func everyAnswerSaysNosniffProblemsImagesAndNotModifiedIncluded() async throws {
        try await withApp(demo: true) { client, _ in
            let manifest = try await Self.fetch(client, "/v1/manifest")
            let cover = try #require((manifest.json["groups"] as? [[String: Any]])?.first?["cover"] as? [String: Any])
            let answers = [
                manifest,
                try await Self.fetch(
                    client, "/v1/manifest", headers: [.ifNoneMatch: try #require(manifest.headers[.eTag])]),
                try await Self.fetch(client, try #require(cover["url"] as? String)),
                try await Self.fetch(client, "/v1/groups/no-such-group"),
                try await client.execute(uri: "/v1/manifest", method: .delete),
                try await Self.fetch(client, "/healthz"),
            ]
            #expect(answers.map(\.status.code) == [200, 304, 200, 404, 405, 200])
            for answer in answers { #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(answer.status)") }
        }
    }

    @Test func everyFileTheConsoleReferencesIsServedWithItsType() async throws {
        try await withApp { client, _ in
            let files = ConsoleFiles()
            var referenced: Set<String> = []
            for path in files.paths {
                let text = String(buffer: try #require(files[path]).body)
                for match in text.matches(
                    of: /(?:from |import\(|src="\/admin\/|href="\/admin\/)['"]?\.?\/?([a-z0-9-]+\.(?:js|css|svg))/)
                {
                    referenced.insert(String(match.1))
                }
            }
            #expect(
                referenced.isSuperset(of: ["app.js", "api.js", "console.css", "icon.svg", "upload.js", "preview.js"]))
            for path in referenced {
                let response = try await Self.fetch(client, "/admin/\(path)")
                #expect(response.status == .ok, "\(path) is referenced but not served")
                #expect(response.headers[.contentType] == ConsoleFiles.contentType(of: path))
            }
            #expect(ConsoleFiles.contentType(of: "app.js") == "text/javascript; charset=utf-8")
        }
    }

    /// The policy allows no inline script or style, so none may be written: it would silently not run.
    @Test func nothingInlineThatThePolicyWouldBlock() throws {
        let files = ConsoleFiles()
        for path in files.paths where path.hasSuffix(".html") || path.hasSuffix(".js") {
            let text = String(buffer: try #require(files[path]).body)
            #expect(text.firstMatch(of: /<script(?![^>]*\ssrc=)[^>]*>/) == nil, "\(path) has an inline script")
            #expect(text.firstMatch(of: /\son[a-z]+="/) == nil, "\(path) has an inline event handler")
            #expect(text.firstMatch(of: /\sstyle="/) == nil, "\(path) has an inline style")
            #expect(!text.contains("innerHTML") && !text.contains("eval("), "\(path) builds markup from text")
            #expect(
                !text.contains("localStorage") && !text.contains("document.cookie"),
                "\(path) keeps the token beyond the tab")
        }
    }

    @Test func unknownFilesAreProblems() async throws {
        try await withApp { client, _ in
            for path in ["/admin/nope.js", "/admin/..%2Fopenapi.yaml", "/admin/%2e%2e", "/admin/INDEX.HTML"] {
                let response = try await Self.fetch(client, path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.json["code"] as? String == "not_found")
            }
        }
    }

    @Test func imagesFromAnAssetHostAreAllowed() {
        #expect(ConsoleController.origin("https://cdn.example.com/stickers/v1") == "https://cdn.example.com")
        #expect(ConsoleController.origin("not a url") == nil)
        let policy = ConsoleController(publicBaseURL: "https://cdn.example.com:8443/x").policy
        #expect(policy.contains("img-src 'self' blob: https://cdn.example.com:8443;"))
        #expect(ConsoleController(publicBaseURL: nil).policy.contains("img-src 'self' blob:;"))
    }

    /// `GET /v1/admin/users/{id}/manifest`: what the console previews for a user, equal to that user's own manifest.
    @Test func theAdminPreviewIsTheUsersOwnManifest() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            try await PremiumManifestTests.premiumChewy(client)
            #expect(try await PremiumManifestTests.grant(client, "hana").status == .created)
            let preview = try await client.execute(
                uri: "/v1/admin/users/hana/manifest?scale=1", method: .get, headers: admin)
            let own = try await client.execute(
                uri: "/v1/manifest?scale=1", method: .get, headers: try await Purchasing.user("hana"))
            #expect(preview.status == .ok && preview.headers[.cacheControl] == "private, no-cache")
            #expect(PremiumManifestTests.chewy(preview)["locked"] as? Bool == false)
            #expect(preview.headers[.eTag] == own.headers[.eTag])
            let stranger = try await client.execute(uri: "/v1/admin/users/gus/manifest", method: .get, headers: admin)
            #expect(PremiumManifestTests.chewy(stranger)["locked"] as? Bool == true)
            // Only for admins; the manifest's own checks apply.
            #expect(
                try await client.execute(uri: "/v1/admin/users/hana/manifest", method: .get).status == .unauthorized)
            let bad = try await client.execute(
                uri: "/v1/admin/users/hana/manifest?scale=9", method: .get, headers: admin)
            #expect(bad.status == .badRequest && bad.json["code"] as? String == "invalid_parameter")
        }
    }
}
