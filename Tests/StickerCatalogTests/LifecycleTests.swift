import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import StickerImage
import TestSupport
import Testing

/// SIGTERM under load: readiness goes at once, the replica serves through the drain, then stops accepting and
/// finishes what is in flight, and exits 0.
@Suite(
    "stickerd's shutdown",
    .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle (swift build)"))
struct LifecycleTests {
    @Test(.hangLimit)
    func sigtermDrainsThenFinishesTheRequestsAndStreamsInFlight() async throws {
        // Setup: a replica, an upload with half its body sent, an event stream open.
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let token = "lifecycle-admin-token-0123456789"
        // (Long drain, grace and timeouts: a busy suite has taken seconds to handle a signal or to answer, and the
        // upload sends nothing from before the signal until after the drain.)
        let drain = 20
        let server = try StickerdProcess(
            serve: [
                "--drain-seconds", "\(drain)", "--shutdown-grace", "120", "--body-timeout", "300",
                "--idle-timeout", "300",
            ],
            environment: ["DATABASE_URL": endpoint.url, "STICKER_ADMIN_TOKEN": token])
        #expect(try await server.waitHealthy())
        let image = PNGCodec.encode(
            RGBAImage(width: 360, height: 360, pixels: [UInt8](repeating: 91, count: 360 * 360 * 4)))
        let upload = try RawSocket(port: server.port)
        upload.send(
            Array(
                """
                POST /v1/admin/groups/chewy/stickers?name=Slow&description=Sent%20in%20two%20halves HTTP/1.1\r
                Host: x\r
                Authorization: Bearer \(token)\r
                Content-Type: image/png\r
                Content-Length: \(image.count)\r
                \r\n
                """.utf8) + image.prefix(image.count / 2))
        let events = try RawSocket(port: server.port)
        events.send(Array("GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try await events.read { $0.contains("\r\n\r\n") }.text.hasPrefix("HTTP/1.1 200"))

        // Action: SIGTERM.
        let signalled = ContinuousClock.now
        kill(server.process.processIdentifier, SIGTERM)

        // Check: once the signal is handled, not ready, but still serving through the drain.
        let ready = try await eventually(pause: .milliseconds(100)) {
            try await RawHTTP.exchange(port: server.port, Array("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        } until: {
            $0.hasPrefix("HTTP/1.1 503")
        }
        #expect(ready.hasPrefix("HTTP/1.1 503"), "\(ready)")
        let manifest = try await RawHTTP.exchange(
            port: server.port, Array("GET /v1/manifest HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(manifest.hasPrefix("HTTP/1.1 200"))
        // After the drain, no new connection is served (refused, or closed unanswered), while the upload is still under
        // way.
        let late = try await eventually(within: .seconds(120), pause: .milliseconds(500)) {
            try? await RawHTTP.exchange(port: server.port, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        } until: {
            $0 == nil || $0 == "<closed>"
        }
        #expect(late == nil || late == "<closed>", "a new connection after the drain: \(late ?? "")")
        #expect(ContinuousClock.now - signalled >= .seconds(drain), "new connections refused before the drain ended")
        // The upload in flight completes, and is stored.
        upload.send(Array(image.suffix(from: image.count / 2)))
        let answer = try await upload.read { $0.contains("\r\n\r\n") }
        #expect(answer.text.hasPrefix("HTTP/1.1 201"), "\(answer.text.prefix(200))")
        // The event stream ends cleanly: the last chunk, then a close, and no reset.
        let stream = try await events.read { $0.hasSuffix("0\r\n\r\n") }
        #expect(stream.text.hasSuffix("0\r\n\r\n") || stream.closed)
        let process = server.process
        _ = try await blocking { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        let stored = try await TestDatabase.withPool(endpoint) { pool in
            try await pool.count("SELECT count(*) FROM stickers WHERE name = 'Slow'")
        }
        #expect(stored == 1)
    }
}
