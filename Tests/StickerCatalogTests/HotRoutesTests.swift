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

/// The image and manifest requests `ServiceResponder` answers without the router get what the router would give them:
/// the same paths and names, the same middleware (a user token, problems), HEAD without a body, and the same
/// observation (request id, nosniff, the route's metrics).
@Suite struct HotRoutesTests {
    static let digest = String(repeating: "ab", count: 32)

    @Test func onlyGetAndHeadOnExactlyTheTwoPathsSkipTheRouter() {
        #expect(HotRoutes.route(method: .get, path: "/v1/manifest") == .manifest)
        #expect(
            HotRoutes.route(method: .head, path: "/v1/assets/\(Self.digest).png")
                == .asset(hex: Substring(Self.digest), format: .png))
        #expect(
            HotRoutes.route(method: .get, path: "/v1/assets/\(Self.digest).webp")
                == .asset(hex: Substring(Self.digest), format: .webp))
        for method: HTTPRequest.Method in [.post, .put, .delete, .options, .init("QUERY")!] {
            #expect(HotRoutes.route(method: method, path: "/v1/manifest") == nil, "\(method)")
            #expect(HotRoutes.route(method: method, path: "/v1/assets/\(Self.digest).png") == nil, "\(method)")
        }
        // Anything else, however close, is the router's to answer (404, 405, another route).
        for path in [
            "/v1/manifest/", "/v1/manifests", "/v1/manifest/changes", "/v1/assets/\(Self.digest).png/",
            "/v1/assets/\(Self.digest).gif", "/v1/assets/\(Self.digest).webp/", "/v1/assets/\(Self.digest)X.png",
            "/v1/assets/\(Self.digest.dropLast()).png",
            "/v1/assets//\(Self.digest.dropLast()).png", "/v1/assets/\(Self.digest.dropLast(2))\u{600}.png",
            "/v1/assets/x.png", "/v2/assets/\(Self.digest).png", "/V1/manifest",
        ] {
            #expect(HotRoutes.route(method: .get, path: path) == nil, "\(path)")
        }
    }

    @Test func theirNamesAreTheRoutersRoutes() {
        let routes = offlineRouter(methodNotAllowed: false).routes.filter { $0.method == .get }.map {
            "/" + $0.path.description.drop { $0 == "/" }
        }
        #expect(routes.contains(HotRoutes.Route.manifest.name))
        #expect(routes.contains(HotRoutes.Route.asset(hex: "", format: .png).name))
        #expect(routes.contains(HotRoutes.Route.asset(hex: "", format: .webp).name))
    }

    @Test func theyAreAnsweredAndObservedAsTheRouterWould() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            let manifest = try await client.execute(uri: "/v1/manifest", method: .get, headers: [.requestID: "hot-1"])
            let url = try #require(
                ((manifest.json["groups"] as? [[String: Any]])?.first?["cover"] as? [String: Any])?["url"] as? String)
            for (uri, type) in [("/v1/manifest", "application/json"), (url, "image/png")] {
                let get = try await client.execute(uri: uri, method: .get, headers: [.requestID: "hot-get"])
                #expect(get.status == .ok && get.headers[.contentType] == type && get.headers[.requestID] == "hot-get")
                #expect(get.headers[.xContentTypeOptions] == "nosniff" && get.body.readableBytes > 0)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(
                    head.status == .ok && head.body.readableBytes == 0
                        && head.headers[.contentLength] == String(get.body.readableBytes))
                #expect(head.headers[.eTag] == get.headers[.eTag] && head.headers[.requestID] != nil)
            }
            // The manifest's user middleware and problems: a bad token is the router's 401 problem, quoting the id.
            let refused = try await client.execute(
                uri: "/v1/manifest", method: .get, headers: [.authorization: "Bearer nope", .requestID: "hot-401"])
            #expect(
                refused.status == .unauthorized && refused.problemCode == "invalid_token"
                    && refused.json["requestId"] as? String == "hot-401")
            #expect(
                refused.headers[.wwwAuthenticate] != nil && refused.headers[.contentType] == "application/problem+json")
            // An image nobody stored: the controller's 404 problem.
            let missing = try await client.execute(uri: "/v1/assets/\(Self.digest).png", method: .get)
            #expect(
                missing.status == .notFound && missing.problemCode == "not_found"
                    && missing.headers[.xContentTypeOptions] == "nosniff")
            // Counted under the router's names for them.
            let text = try await ObservabilityTests.metrics(client)
            #expect(
                ObservabilityTests.value(
                    text, #"http_requests_total{route="/v1/assets/{sha256}.png",method="GET",status="200"}"#) == 1)
            #expect(
                ObservabilityTests.value(
                    text, #"http_requests_total{route="/v1/assets/{sha256}.png",method="HEAD",status="200"}"#) == 1)
            #expect(
                ObservabilityTests.value(
                    text, #"http_requests_total{route="/v1/assets/{sha256}.png",method="GET",status="404"}"#) == 1)
            #expect(
                ObservabilityTests.value(text, #"http_requests_total{route="/v1/manifest",method="GET",status="401"}"#)
                    == 1)
            #expect(
                ObservabilityTests.value(text, #"http_requests_total{route="/v1/manifest",method="GET",status="200"}"#)
                    == 2)
        }
    }
}
