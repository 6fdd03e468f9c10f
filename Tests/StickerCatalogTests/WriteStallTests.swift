import Foundation
import Testing

/// A client that stops reading an answer: its connection is closed once the answer makes no progress for
/// `--write-stall-timeout`, and what it held (a bundle's place, the answer's buffers) is given back.
@Suite(
    "Answers nobody reads", .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle")
)
struct WriteStallTests {
    @Test(.hangLimit) func aBundleNobodyReadsIsClosedAndItsPlaceGivenBack() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let server = try StickerdProcess(
            serve: ["--write-stall-timeout", "3", "--max-bundles-per-address", "1"],
            environment: ["DATABASE_URL": endpoint.url])
        #expect(try await server.waitHealthy())
        let manifest = try await server.get("/v1/manifest?size=large&scale=3")
        let listed = manifest.matches(of: /"sha256":"([0-9a-f]{64})"/).map { "'\($0.1)'" }.joined(separator: ",")
        let largest = try await TestDatabase.withPool(endpoint) { db in
            try await db.strings(
                "SELECT sha256 FROM assets WHERE sha256 IN (\(listed)) ORDER BY length(bytes) DESC LIMIT 1")
        }
        let digest = try #require(largest.first)
        // A bundle of one large image 256 times (megabytes), asked for by a client that reads nothing, with a receive
        // buffer of a few KiB: the answer stalls once the kernel's buffers are full.
        let body =
            "{\"assets\":[" + Array(repeating: "{\"sha256\":\"\(digest)\"}", count: 256).joined(separator: ",")
            + "]}"
        let greedy = try RawSocket(port: server.port)
        var small: Int32 = 4096
        setsockopt(greedy.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        greedy.send(
            Array(
                ("POST /v1/assets/bundle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8))
        // Check: while it stalls, its place is held (its writer waits on a send buffer of bounded size, not on one the
        // kernel grows to hold it all): the address's next bundle is refused.
        try await Task.sleep(for: .milliseconds(500))
        let small2 = "{\"assets\":[{\"sha256\":\"\(digest)\"}]}"
        let request = Array(
            ("POST /v1/assets/bundle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: \(small2.utf8.count)\r\n\r\n\(small2)").utf8)
        let refused = try await RawHTTP.exchange(port: server.port, request)
        #expect(refused.hasPrefix("HTTP/1.1 429"), "\(refused.prefix(300))")
        // Within a few seconds more the stall is seen and the connection closed; the address's one place is free
        // again (a second bundle from it is answered, not refused with 429).
        var stalls = 0
        for _ in 0..<40 where stalls == 0 {
            try await Task.sleep(for: .milliseconds(250))
            let metrics = try await server.get("/metrics")
            stalls = metrics.firstMatch(of: /http_write_stalls_total (\d+)/).flatMap { Int($0.1) } ?? 0
        }
        #expect(stalls == 1)
        let next = try await RawHTTP.exchange(port: server.port, request)
        #expect(next.hasPrefix("HTTP/1.1 200"), "\(next.prefix(300))")
        withExtendedLifetime(greedy) {}
        await server.stop()
    }
}
