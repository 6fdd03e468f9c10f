import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Testing

/// The line per request: written from a buffer by a thread of its own, so a stuck reader of standard error never
/// holds a request (it used to: one write(2) per line on the event loop); a full buffer drops lines and counts them;
/// values that could forge a field or a line are escaped in the text format as in JSON.
@Suite struct AccessLogTests {
    @Test(
        .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle (swift build)"),
        .hangLimit)
    func aLogReaderThatNeverReadsHoldsNoRequest() async throws {
        // Setup: stickerd at its default level, its output into a pipe nobody reads (64 KiB fill it: about 300 lines).
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        var (pipe, server) = try Self.start(endpoint)
        // Once in a full suite on a busy machine, a stickerd started here ended before it was healthy, without a line
        // (not understood yet: see the session note); its status is printed, and one more start is tried.
        if try await !server.waitHealthy(), !server.process.isRunning {
            print(
                "AccessLogTests: stickerd ended before it was healthy: \(server.process.terminationReason) \(server.process.terminationStatus)"
            )
            (pipe, server) = try Self.start(endpoint)
        }
        defer { if server.process.isRunning { server.process.terminate() } }
        let healthy = try await server.waitHealthy()
        #expect(healthy)
        // Action: 1,000 requests pipelined on one connection.
        let count = 1000
        let socket = try RawSocket(port: server.port)
        socket.send(Array(String(repeating: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", count: count).utf8))
        let answered = try await socket.read { $0.components(separatedBy: "HTTP/1.1 200").count - 1 >= count }
        // Check: all answered; what reached the pipe is whole lines, each in the text format.
        #expect(answered.text.components(separatedBy: "HTTP/1.1 200").count - 1 == count)
        let metrics = try await server.get("/metrics")
        #expect(metrics.contains("log_lines_dropped_total"))
        await server.stop(SIGKILL)  // SIGTERM would flush at exit, into a pipe nobody reads
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count > 100 && text.hasSuffix("\n"))
        let requests = lines.filter { $0.hasSuffix("[StickerCatalog] request") }
        #expect(requests.count > 100)
        #expect(
            requests.allSatisfy { $0.contains(" info stickerd: bytes=") && $0.contains(" route=/healthz status=200 ") })
    }

    static func start(_ endpoint: DatabaseEndpoint) throws -> (Pipe, StickerdProcess) {
        let pipe = Pipe()
        return (
            pipe,
            try StickerdProcess(
                serve: [], environment: ["DATABASE_URL": endpoint.url], output: pipe.fileHandleForWriting)
        )
    }

    @Test func aFullBufferDropsLinesAndCountsThemWithoutWaiting() throws {
        // Setup: a sink of 4 KiB on a pipe nobody reads yet.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let sink = LogSink(descriptor: ends[1], capacity: 4096)
        let line = Array((String(repeating: "x", count: 99) + "\n").utf8)
        // Action: 2,000 lines (200 KB): more than the pipe and the buffer hold.
        let accepted = (0..<2000).filter { _ in sink.append(line) }.count
        // Check: some were taken, the rest dropped and counted, and nothing waited on the reader.
        #expect(accepted > 0 && accepted < 2000)
        #expect(sink.dropped == 2000 - accepted)
        // Once the reader catches up, lines are taken again.
        let readEnd = ends[0]
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(readEnd, &buffer, buffer.count) > 0 {}
        }
        reader.start()
        sink.flush()
        #expect(sink.append(line))
    }

    @Test func textValuesThatCouldForgeAFieldOrALineAreEscapedAsInJSON() {
        var line = LogLine(format: .text, level: "info", label: "stickerd", source: "Test")
        line.field("plain", "/v1/manifest")
        line.field("forged", "x status=500\n2026-01-01T00:00:00+0000 error \"fake\"\\")
        line.field("empty", "")
        line.end(message: "two\nlines")
        let text = String(decoding: line.bytes, as: UTF8.self)
        #expect(
            text.hasSuffix(
                #" info stickerd: plain=/v1/manifest forged="x status=500\n2026-01-01T00:00:00+0000 error \"fake\"\\" empty="" [Test] two\nlines"#
                    + "\n"))
        #expect(text.filter { $0 == "\n" }.count == 1)

        var numbers = LogLine(format: .text, level: "info", label: "l", source: "s")
        numbers.field("a", milliseconds: .microseconds(5))
        numbers.field("b", milliseconds: .microseconds(12_345_678))
        numbers.field("c", 0)
        numbers.field("d", 907)
        #expect(String(decoding: numbers.bytes, as: UTF8.self).hasSuffix(" a=0.005 b=12345.678 c=0 d=907"))

        var json = LogLine(format: .json, level: "info", label: "stickerd", source: "Test")
        json.field("ms", milliseconds: .microseconds(1500))
        json.field("value", "a\"b\u{1}")
        json.end(message: "m")
        let object = try? JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: String]
        #expect(
            object?["value"] == "a\"b\u{1}" && object?["message"] == "m" && object?["source"] == "Test"
                && object?["ms"] == "1.500")
    }
}
