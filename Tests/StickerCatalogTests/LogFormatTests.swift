import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Testing

/// `stickerd serve --log-format json`: one JSON object a line, one line per request at info, and never a token or
/// a signed URL's signature.
@Suite(
    "stickerd's logs",
    .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle (swift build)"))
struct LogFormatTests {
    @Test(.hangLimit)
    func jsonLinesWithOneLinePerRequestAndNoSecrets() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let token = "log-test-admin-token-0123456789"
        let server = try StickerdProcess(
            serve: ["--log-format", "json"],
            environment: ["DATABASE_URL": endpoint.url, "STICKER_ADMIN_TOKEN": token])
        #expect(try await server.waitHealthy())
        let manifest = try await RawHTTP.exchange(
            port: server.port,
            Array(
                "GET /v1/manifest HTTP/1.1\r\nHost: x\r\nX-Request-Id: json-log-1\r\nConnection: close\r\n\r\n".utf8),
            whole: true)
        #expect(manifest.contains("X-Request-Id: json-log-1") || manifest.contains("x-request-id: json-log-1"))
        _ = try await RawHTTP.exchange(
            port: server.port,
            Array(
                "GET /v1/admin/groups HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nX-Request-Id: json-log-2\r\n\r\n"
                    .utf8))
        _ = try await RawHTTP.exchange(
            port: server.port,
            Array(
                "GET /v1/assets/\(String(repeating: "ab", count: 32)).png?exp=9999999999&sig=SIGNATURE-SECRET HTTP/1.1\r\nHost: x\r\nX-Request-Id: json-log-3\r\n\r\n"
                    .utf8))
        let output = await server.stop()

        let lines = output.split(separator: "\n").filter { !$0.isEmpty }
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        #expect(objects.count == lines.count, "every line is one JSON object of strings: \(lines.prefix(3))")
        let request = try #require(objects.first { $0["request_id"] == "json-log-1" && $0["message"] == "request" })
        #expect(request["route"] == "/v1/manifest" && request["status"] == "200" && request["method"] == "GET")
        #expect(
            request["level"] == "info" && Double(request["duration_ms"] ?? "") != nil
                && Int(request["bytes"] ?? "") ?? 0 > 0)
        #expect(objects.contains { $0["request_id"] == "json-log-2" && $0["status"] == "200" })
        let asset = try #require(objects.first { $0["request_id"] == "json-log-3" && $0["message"] == "request" })
        // An unknown digest with a forged signature is judged by it, as a hidden image would be: 403.
        #expect(asset["path"]?.hasPrefix("/v1/assets/") == true && asset["status"] == "403")
        #expect(!output.contains(token) && !output.contains("SIGNATURE-SECRET"))
    }
}
