import CatalogApp
import CatalogCore
import CatalogHTTP
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// Every refusal a route makes before it reaches the outside, with no database: each port is unimplemented, so a
/// refusal that read anything would fail the test naming the port it called. Status and problem code are the API's.
@Suite struct RouteRefusalTests {
    static let adminToken = "stk_route-refusal-tests-bootstrap"
    static let admin: HTTPFields = [.authorization: "Bearer \(adminToken)", .contentType: "application/json"]

    struct Refusal: CustomStringConvertible, Sendable {
        let method: HTTPRequest.Method
        let uri: String
        var headers: HTTPFields = [:]
        var body: String?
        let status: HTTPResponse.Status
        let code: String
        var description: String { "\(method) \(uri)" }
    }

    static let refusals: [Refusal] = [
        // The client routes: bad view parameters, facts, cursors, ids, bodies.
        Refusal(method: .get, uri: "/v1/manifest?scale=9", status: .badRequest, code: "invalid_parameter"),
        Refusal(method: .get, uri: "/v1/manifest?size=huge", status: .badRequest, code: "invalid_parameter"),
        Refusal(
            method: .get, uri: "/v1/manifest?filter=Not%20A%20Slug", status: .badRequest, code: "invalid_parameter"),
        Refusal(
            method: .get, uri: "/v1/manifest", headers: [HTTPField.Name("Sticker-Platform")!: "iOS 17"],
            status: .badRequest, code: "invalid_parameter"),
        Refusal(
            method: .get, uri: "/v1/manifest?appVersion=two", status: .badRequest, code: "invalid_parameter"),
        Refusal(
            method: .get, uri: "/v1/manifest", headers: [HTTPField.Name("Sticker-Installation")!: "short"],
            status: .badRequest, code: "invalid_parameter"),
        Refusal(method: .get, uri: "/v1/groups/Not_A_Slug", status: .notFound, code: "not_found"),
        Refusal(method: .get, uri: "/v1/manifest/changes?since=forged", status: .gone, code: "cursor_expired"),
        Refusal(method: .get, uri: "/v1/events?since=forged", status: .gone, code: "cursor_expired"),
        Refusal(method: .get, uri: "/v1/search?q=%20", status: .badRequest, code: "invalid_parameter"),
        Refusal(method: .get, uri: "/v1/trending?window=decade", status: .badRequest, code: "invalid_parameter"),
        Refusal(method: .post, uri: "/v1/usage", body: "not json", status: .badRequest, code: "invalid_body"),
        Refusal(method: .get, uri: "/v1/assets/not-a-digest.png", status: .notFound, code: "not_found"),
        // Tokens: a user token that does not verify, a user route without one, an admin route without one.
        Refusal(
            method: .get, uri: "/v1/manifest", headers: [.authorization: "Bearer not.a.jwt"], status: .unauthorized,
            code: "invalid_token"),
        Refusal(method: .get, uri: "/v1/me/entitlements", status: .unauthorized, code: "invalid_token"),
        Refusal(method: .get, uri: "/v1/admin/groups", status: .unauthorized, code: "unauthorized"),
        Refusal(
            method: .get, uri: "/v1/admin/groups", headers: [.authorization: "Bearer stk_wrong"],
            status: .unauthorized, code: "unauthorized"),
        // Admin bodies: not JSON, an audience naming no condition.
        Refusal(
            method: .post, uri: "/v1/admin/groups", headers: admin, body: "{", status: .badRequest,
            code: "invalid_body"),
        Refusal(
            method: .patch, uri: "/v1/admin/groups/chewy", headers: admin, body: #"{"audience": {}}"#,
            status: .unprocessableContent, code: "validation_failed"),
        Refusal(
            method: .get, uri: "/v1/admin/manifest?at=yesterday", headers: admin, status: .badRequest,
            code: "invalid_parameter"),
    ]

    @Test(arguments: refusals)
    func isRefusedBeforeAnythingIsRead(_ refusal: Refusal) async throws {
        var options = ServiceOptions()
        options.access.bootstrapAdminToken = Self.adminToken
        options.access.userTokens = try await UserTokens(
            secret: String(repeating: "k", count: 32), publicKeys: [])
        var ports = CatalogPorts.unimplemented
        ports.adminTokens = NoStoredTokens()
        try await Offline.app(ports: ports, options: options).test(.router) { client in
            let response = try await client.execute(
                uri: refusal.uri, method: refusal.method, headers: refusal.headers,
                body: refusal.body.map { ByteBuffer(string: $0) })
            #expect(response.status == refusal.status)
            #expect(response.headers[.contentType] == "application/problem+json")
            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            #expect(json?["code"] as? String == refusal.code, "\(String(buffer: response.body))")
        }
    }
}

/// An admin token store that holds none: a token other than the bootstrap one is looked up and not found.
struct NoStoredTokens: AdminTokenRepository {
    func adminTokenName(digest: [UInt8]) async throws -> String? { nil }
    func createAdminToken(name: String, digest: [UInt8]) async throws {
        Issue.record("no route test creates an admin token")
    }
}
