import Foundation
import Hummingbird
import HummingbirdTesting
import StickerImage
import TestSupport
import Testing

@Suite("Admin API: animated and hostile uploads")
struct AnimatedUploadTests {
    @Test("An APNG sticker reports animated, frames, durationMs and loops in the answer and the manifest")
    func apng() async throws {
        var apng = APNGWriter.animation(side: 408, frames: 12, delay: 1, denominator: 12)
        apng.loops = 2
        let bytes = apng.bytes
        try await withApp(demo: true) { client, _ in
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=Blink&description=blinks", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: bytes))
            #expect(response.status == .created)
            #expect(response.json["animated"] as? Bool == true && response.json["frames"] as? Int == 12)
            #expect(response.json["durationMs"] as? Int == 1000 && response.json["loops"] as? Int == 2)
            let manifest = try await client.execute(uri: "/v1/groups/chewy", method: .get)
            let sticker = (manifest.json["stickers"] as? [[String: Any]])?.first { $0["name"] as? String == "Blink" }
            #expect(sticker?["animated"] as? Bool == true && sticker?["frames"] as? Int == 12)
            #expect(sticker?["durationMs"] as? Int == 1000 && sticker?["loops"] as? Int == 2)
        }
    }

    @Test(
        "Broken or oversized animations get their own problem codes",
        arguments: [
            (APNGWriter.animation(side: 300, frames: 101).bytes, "too_many_frames"),
            (APNGWriter.animation(side: 300, frames: 11, delay: 1, denominator: 1).bytes, "animation_too_long"),
            (
                {
                    var a = APNGWriter.animation(side: 408, frames: 3)
                    a.announcedFrames = 4
                    return a.bytes
                }(), "invalid_animation"
            ),
        ])
    func refused(bytes: [UInt8], code: String) async throws {
        try await withApp(demo: true) { client, db in
            let assets = try await db.count("SELECT count(*) FROM assets")
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers?name=X&description=x", method: .post,
                headers: Body.pngHeaders, body: ByteBuffer(bytes: bytes))
            #expect(response.status == .unprocessableContent && response.problemCode == code)
            #expect(try await db.count("SELECT count(*) FROM assets") == assets)
        }
    }

    @Test("What is stored and served has no text, time or EXIF metadata")
    func stripped() async throws {
        let chunks = Samples.chunks(Samples.otherSticker)
        let text: [UInt8] = Array("Author".utf8) + [0] + Array("Jane Doe, 12 Rue X".utf8)
        var tagged = [
            chunks[0], (type: "tEXt", data: text), (type: "tIME", data: [7, 234, 11, 22, 1, 2, 3] as [UInt8]),
        ]
        tagged += chunks.dropFirst()
        let bytes = Samples.assemble(tagged)
        try await withApp { client, _ in
            _ = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin, body: Body.json(["id": "g", "name": "G"]))
            let response = try await client.execute(
                uri: "/v1/admin/groups/g/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form([("name", "L"), ("description", "l")], files: [("file", bytes)]))
            let url = try #require((response.json["asset"] as? [String: Any])?["url"] as? String)
            let served = Array(buffer: try await client.execute(uri: url, method: .get).body)
            #expect(served == Samples.otherSticker)
            #expect(!Samples.chunks(served).contains { $0.type == "tEXt" || $0.type == "tIME" })
        }
    }

    @Test("An empty file part is refused with validation_failed")
    func emptyFile() async throws {
        try await withApp(demo: true) { client, _ in
            let response = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form([("name", "X"), ("description", "d")], files: [("file", [])]))
            #expect(response.status == .unprocessableContent && response.problemCode == "validation_failed")
        }
    }

    @Test("Requests that lie about their length get 4xx answers over real HTTP")
    func lyingRequests() async throws {
        try await withApp(demo: true, live: true) { client, db in
            let port = try #require(client.port)
            let head =
                "POST /v1/admin/groups/chewy/stickers?name=X&description=d HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: Bearer \(adminToken)\r\nContent-Type: image/png\r\n"
            // Declares more than the limit: refused on the header alone, before any body is sent. (Body bytes the
            // server never reads would make its close an RST, which can discard the answer before it is read.)
            let declared = try await RawHTTP.exchange(
                port: port, Array((head + "Content-Length: 99999999\r\n\r\n").utf8))
            #expect(declared.hasPrefix("HTTP/1.1 413"), "\(declared.prefix(80))")
            // Sends more than it declares: the declared bytes are judged (a truncated PNG), never a 500.
            let longer = try await RawHTTP.exchange(
                port: port, Array((head + "Content-Length: 200\r\n\r\n").utf8) + Samples.sticker)
            #expect(longer.hasPrefix("HTTP/1.1 422"), "\(longer.prefix(80))")
            #expect(try await db.count("SELECT count(*) FROM stickers") == 9)
        }
    }
}

/// One request over a plain socket, for requests no HTTP client would send.
enum RawHTTP {
    /// The answer up to its status line, or all of it with `whole` (the server must close the connection).
    static func exchange(port: Int, _ request: [UInt8], whole: Bool = false) async throws -> String {
        try await blocking { try exchangeBlocking(port: port, request, whole: whole) }
    }

    static func exchangeBlocking(port: Int, _ request: [UInt8], whole: Bool = false) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Generous: the whole suite runs in parallel on two cores.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // Reads until the status line is complete, the server closes, or an error (named in the answer).
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while whole || !answer.contains(0x0A) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if whole, count == 0 { return String(decoding: answer, as: UTF8.self) }
                return count == 0 ? String(decoding: answer, as: UTF8.self) + "<closed>" : "<error \(errno)>"
            }
            answer += buffer.prefix(count)
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
