import Foundation
import StickerImage
import TestSupport
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
        let token = "write-stall-admin-token-0123456789"
        let server = try StickerdProcess(
            serve: ["--write-stall-timeout", "3", "--max-bundles-per-address", "1"],
            environment: ["DATABASE_URL": endpoint.url, "STICKER_ADMIN_TOKEN": token])
        #expect(try await server.waitHealthy())
        // A sticker of noise, so that 256 of it are megabytes: the demo's flat art is a few KB a picture, which the
        // kernel's buffers hold whole, and then nothing stalls.
        let noise = Self.noise()
        let upload = try await RawHTTP.exchange(
            port: server.port,
            Array(
                ("POST /v1/admin/groups/chewy/stickers?name=Noise&description=noise HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer \(token)\r\nContent-Type: image/png\r\nConnection: close\r\n"
                    + "Content-Length: \(noise.count)\r\n\r\n").utf8) + noise, whole: true)
        #expect(upload.hasPrefix("HTTP/1.1 201"), "\(upload.prefix(300))")
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

    /// A 300 x 300 PNG whose middle is random colours: about 60 KB that no encoder makes smaller.
    static func noise() -> [UInt8] {
        var random = SplitMix(48)
        var pixels = [UInt8](repeating: 255, count: 300 * 300 * 4)
        for y in 90..<210 {
            for x in 30..<270 {
                let value = random.next()
                let at = (y * 300 + x) * 4
                (pixels[at], pixels[at + 1], pixels[at + 2]) = (
                    UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)
                )
            }
        }
        return PNGCodec.encode(RGBAImage(width: 300, height: 300, pixels: pixels))
    }
}
