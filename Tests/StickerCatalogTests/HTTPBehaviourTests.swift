import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@Suite("HTTP behaviour: HEAD, 405, conditional requests, slow and hostile clients")
struct HTTPBehaviourTests {
    @Test("HEAD answers every client GET route with its status and headers, and no body")
    func head() async throws {
        try await withApp(demo: true) { client, _ in
            let manifest = try await client.execute(uri: "/v1/manifest", method: .get)
            let asset = try #require(
                ((manifest.json["groups"] as? [[String: Any]])?.first?["cover"] as? [String: Any])?["url"] as? String)
            _ = try await waitUntilReady(client)
            for uri in [
                "/v1/manifest", "/v1/manifest?locale=fr", "/v1/groups/chewy", "/v1/filters", asset, "/healthz",
                "/readyz",
                "/v1/groups/nope", "/v1/assets/\(String(repeating: "0", count: 64)).png",
            ] {
                let get = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == get.status, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(
                    head.headers[.contentLength] == get.headers[.contentLength]
                        && head.headers[.eTag] == get.headers[.eTag], "\(uri)")
            }
        }
    }

    @Test("A known path with a method it does not serve is 405 method_not_allowed with Allow")
    func methodNotAllowed() async throws {
        let router = offlineRouter(methodNotAllowed: false)
        var served: [String: Set<HTTPRequest.Method>] = [:]
        for route in router.routes {
            served["/" + route.path.description.drop { $0 == "/" }, default: []].insert(route.method)
        }
        // Where pages on other origins may call, OPTIONS is served (a preflight: CrossOriginTests), so it is allowed.
        for path in served.keys where CrossOrigin.scope(of: path) != .closed { served[path]?.insert(.options) }
        try await withApp(demo: true) { [served] client, _ in
            for (path, methods) in served {
                for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .trace, .options]
                where !methods.contains(method) {
                    let response = try await client.execute(
                        uri: AdminRouteTests.uri(path), method: method, headers: admin)
                    #expect(
                        response.status == .methodNotAllowed && response.problemCode == "method_not_allowed",
                        "\(method) \(path)")
                    let allow = Set(
                        response.headers[.allow]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                            ?? [])
                    #expect(allow == Set(methods.map(\.rawValue) + (methods.contains(.get) ? ["HEAD"] : [])), "\(path)")
                }
            }
            #expect(try await client.execute(uri: "/v1/nothing-here", method: .delete).status == .notFound)
            // A method no route can name (QUERY, PROPFIND): 405 on a known path with its Allow, 404 elsewhere.
            let query = HTTPRequest.Method("QUERY")!
            for path in [
                "/v1/manifest", "/v1/admin/groups/chewy/stickers",
                "/v1/assets/\(String(repeating: "a", count: 64)).png", "/healthz",
            ] {
                let response = try await client.execute(uri: path, method: query, headers: admin)
                #expect(response.status == .methodNotAllowed && response.problemCode == "method_not_allowed", "\(path)")
                #expect(
                    response.headers[.allow]?.contains("GET") == true
                        || response.headers[.allow]?.contains("POST") == true, "\(path)")
            }
            #expect(try await client.execute(uri: "/v1/nothing-here", method: query).status == .notFound)
        }
    }

    @Test("If-None-Match: strong, weak (W/), lists and * answer 304; others 200")
    func conditional() async throws {
        try await withApp(demo: true) { client, _ in
            let etag = try #require(try await client.execute(uri: "/v1/manifest", method: .get).headers[.eTag])
            for header in [etag, "W/\(etag)", "\"other\", \(etag)", "\"a\",W/\(etag) ,\"b\"", "*"] {
                #expect(
                    try await client.execute(uri: "/v1/manifest", method: .get, headers: [.ifNoneMatch: header]).status
                        == .notModified, "\(header)")
            }
            for header in ["\"other\"", "W/\"other\"", etag.replacingOccurrences(of: "\"", with: ""), ""] {
                #expect(
                    try await client.execute(uri: "/v1/manifest", method: .get, headers: [.ifNoneMatch: header]).status
                        == .ok, "\(header)")
            }
        }
    }

    @Test("Empty, blank and over-long multipart boundaries are 400 validation_failed, and the service keeps serving")
    func boundaries() async throws {
        try await withApp(demo: true, live: true) { client, db in
            for boundary in ["\"\"", "\"   \"", "", String(repeating: "b", count: 71), "\"trailing \""] {
                var headers = admin
                headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
                let response = try await client.execute(
                    uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: headers,
                    body: ByteBuffer(string: "--\r\n\r\n--"))
                #expect(response.status == .badRequest && response.problemCode == "validation_failed", "\(boundary)")
            }
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            #expect(try await db.count("SELECT count(*) FROM stickers") == 9)
        }
    }

    @Test("A chunked upload is refused with 413 as soon as it passes the budget, long before it ends")
    func chunkedOverLimit() async throws {
        try await withApp(demo: true, live: true) { client, db in
            let port = try #require(client.port)
            let head =
                "POST /v1/admin/groups/chewy/stickers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(adminToken)\r\n"
                + "Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk =
                Array("4000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 0x4000) + Array("\r\n".utf8)
            // Up to 64 MiB of preamble; the budget is 576 KiB, so the answer must come after a small part of it.
            let (answer, sent) = try await RawHTTP.stream(port: port, head: Array(head.utf8), chunk: chunk, times: 4096)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(80))")
            #expect(sent < 16 << 20, "sent \(sent) bytes before the answer")
            #expect(try await db.count("SELECT count(*) FROM stickers") == 9)
        }
    }

    @Test(
        "Slow clients: a trickled body gets 408, a stalled or trickled head is closed, and others are served meanwhile")
    func slowClients() async throws {
        try await withApp(
            demo: true, live: true,
            options: { options in
                // An idle timeout far above the trickle's pauses, so that only the body deadline can end the trickle.
                options.server.bodyTimeout = .seconds(1)
                options.server.idleTimeout = .seconds(10)
            }
        ) { client, _ in
            let port = try #require(client.port)
            let started = ContinuousClock.now
            // A hundred clients that never finish their request head hold nothing for long.
            let loris = try (0..<100).map { _ in try RawSocket(port: port) }
            for socket in loris { socket.send(Array("GET /v1/manifest HTTP/1.1\r\nHost: x\r\n".utf8)) }
            // (A connection of its own: the test client's, idle over 10 s in a busy suite, may have been closed. The
            // bound catches a server that stops serving, not slowness: a busy full suite took over 10 s.)
            let manifest = try await RawHTTP.exchange(
                port: port, Array("GET /v1/manifest HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(manifest.hasPrefix("HTTP/1.1 200") && ContinuousClock.now - started < .seconds(60))
            // A body trickling in a byte at a time is cut off.
            let trickle = try RawSocket(port: port)
            trickle.send(
                Array(
                    ("PATCH /v1/admin/groups/chewy HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(adminToken)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n").utf8))
            // It trickles until answered, for up to a minute (a busy full suite once let 40 bytes go by without an
            // answer). A close without the 408 counts too: the server closing while bytes still arrive resets the
            // connection, which can discard the 408 before it is read.
            let answer = try await eventually(pause: .milliseconds(100)) {
                trickle.send([UInt8(ascii: " ")])
                return trickle.receiveAvailable()
            } until: {
                !$0.isEmpty
            }
            #expect(answer.hasPrefix("HTTP/1.1 408") || answer == "<closed>", "\(answer.prefix(60))")
            // The idle timeout closes the head-trickling clients (a closed socket keeps saying so).
            let closed = try await eventually(pause: .milliseconds(200)) {
                loris.filter { $0.receiveAvailable() == "<closed>" }.count
            } until: {
                $0 == loris.count
            }
            #expect(closed == loris.count)
        }
    }

    @Test("Uploads past the concurrency bound are refused at once with 503 too_many_uploads")
    func uploadBound() async throws {
        try await withApp(demo: true, live: true, options: { $0.limits.concurrentUploads = 1 }) { client, _ in
            // Setup: an upload that sends its head and 10 of its 1,000 bytes, then waits, holding the only slot once
            // its head is read (on a busy machine that took over 300 ms; /metrics says when).
            let port = try #require(client.port)
            let holder = try RawSocket(port: port)
            holder.send(
                Array(
                    ("POST /v1/admin/groups/chewy/stickers?name=A&description=d HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(adminToken)\r\n"
                        + "Content-Type: image/png\r\nContent-Length: 1000\r\n\r\n").utf8)
                    + Array(Samples.sticker.prefix(10)))
            let held = try await eventually {
                ObservabilityTests.value(try await ObservabilityTests.metrics(client), "uploads_in_progress") ?? 0
            } until: {
                $0 >= 1
            }
            #expect(held == 1)
            // Action: a second upload.
            let second = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=B&description=d", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: Samples.otherSticker))
            // Check: refused at once, and the holder still waiting for its body.
            #expect(
                second.status == .serviceUnavailable && second.problemCode == "too_many_uploads"
                    && second.headers[.retryAfter] != nil)
            #expect(holder.receiveAvailable().isEmpty)
        }
    }
}

extension RawHTTP {
    /// Sends `head`, then `chunk` up to `times` times, stopping as soon as an answer arrives: the answer and the bytes
    /// sent.
    static func stream(port: Int, head: [UInt8], chunk: [UInt8], times: Int) async throws -> (String, Int) {
        try await blocking { try streamBlocking(port: port, head: head, chunk: chunk, times: times) }
    }

    static func streamBlocking(port: Int, head: [UInt8], chunk: [UInt8], times: Int) throws -> (String, Int) {
        let socket = try RawSocket(port: port)
        socket.send(head)
        var sent = head.count
        for _ in 0..<times {
            // Paced: a moment for the server to answer after each chunk, as a real client's network would give it.
            var ready = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 20) > 0 {
                let answer = socket.receiveAvailable()
                if !answer.isEmpty { return (answer, sent) }
            }
            let written = chunk.withUnsafeBytes { Glibc.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { break }
            sent += written
        }
        // The server stopped reading: its answer is waiting, or it closed.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(socket.fd, &buffer, buffer.count, 0)
        return (count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : "<closed>", sent)
    }
}
