import CatalogApp
import CatalogHTTP
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `/web/stickers.js` as pages on any origin load it, and the demo chat only with `--demo`.
@Suite struct WebFilesTests {
    @Test func theModuleLoadsFromAnyOriginCompressedUnderItsBudget() async throws {
        try await Offline.app().test(.router) { client in
            let plain = try await client.execute(uri: "/web/stickers.js", method: .get)
            #expect(plain.status == .ok && plain.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(plain.headers[.accessControlAllowOrigin] == "*")
            let gzip = try await client.execute(
                uri: "/web/stickers.js", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(gzip.headers[.contentEncoding] == "gzip")
            // Issue 49's budget: under 15 KB gzipped as served.
            #expect(gzip.body.readableBytes < 15 * 1024, "\(gzip.body.readableBytes) bytes gzipped")
            #expect(gzip.body.readableBytes < plain.body.readableBytes / 2)
            let etag = try #require(gzip.headers[.eTag])
            #expect(etag != plain.headers[.eTag] && etag.hasSuffix("-gzip\""))
            let again = try await client.execute(
                uri: "/web/stickers.js", method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: etag])
            #expect(again.status == .notModified)
            let missing = try await client.execute(uri: "/web/nothing.js", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    @Test func theDemoChatIsServedWithDemoOnly() async throws {
        try await Offline.app().test(.router) { client in
            let page = try await client.execute(uri: "/demo", method: .get)
            #expect(page.status == .notFound)
        }
        var options = ServiceOptions()
        options.demo = true
        try await Offline.app(options: options).test(.router) { client in
            let page = try await client.execute(uri: "/demo", method: .get)
            #expect(page.status == .ok && String(buffer: page.body).contains("/demo/chat.js"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let script = try await client.execute(uri: "/demo/chat.js", method: .get)
            #expect(script.status == .ok)
        }
    }
}
