import CatalogApp
import CatalogCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Helpers of the audience tests: a caller's stated facts as headers, an audience set on a group, what a caller sees.
enum Audiences {
    static let countryHeader = "CloudFront-Viewer-Country"

    /// The service behind a CDN that names the country.
    static let options: @Sendable (inout ServiceOptions) -> Void = { $0.server.countryHeader = countryHeader }

    /// The headers of a caller in `country` stating `platform`, `version` and `installation`.
    static func caller(
        country: String? = nil, platform: String? = nil, version: String? = nil, installation: String? = nil
    ) -> HTTPFields {
        var fields = HTTPFields()
        if let country { fields[HTTPField.Name(countryHeader)!] = country }
        if let platform { fields[HTTPField.Name("Sticker-Platform")!] = platform }
        if let version { fields[HTTPField.Name("Sticker-App-Version")!] = version }
        if let installation { fields[HTTPField.Name("Sticker-Installation")!] = installation }
        return fields
    }

    /// Sets `group`'s audience (nil: everyone).
    static func set(_ client: some TestClientProtocol, _ group: String, _ audience: [String: Any]?) async throws {
        let response = try await client.execute(
            uri: "/v1/admin/groups/\(group)", method: .patch, headers: admin,
            body: Body.json(["audience": audience.map { $0 as Any } ?? NSNull()]))
        #expect(response.status == .ok, "\(String(buffer: response.body))")
    }

    /// The ids of the groups the manifest shows `headers`.
    static func groups(_ client: some TestClientProtocol, _ headers: HTTPFields = [:]) async throws -> [String] {
        try await ChangeFeedTests.manifest(client, headers: headers).groups.map(\.id)
    }

    /// Whether the manifest shows `group` to `headers`.
    static func sees(_ client: some TestClientProtocol, _ group: String, _ headers: HTTPFields) async throws -> Bool {
        try await groups(client, headers).contains(group)
    }

    /// The fields a 422 names.
    static func fields(_ response: TestResponse) -> [String] {
        (response.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }
}
