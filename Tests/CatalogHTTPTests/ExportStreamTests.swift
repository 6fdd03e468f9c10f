import CatalogHTTP
import CatalogServices
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization
import TestSupport
import Testing

/// An export's answer streams and holds its replica's one export slot until its last byte; dropped unwritten (a client
/// gone first) it gives the slot back and removes its files. No database: the files come from a folder.
@Suite struct ExportStreamTests {
    /// Collects a body, noting the gate's slots taken at each write.
    struct Collector: ResponseBodyWriter {
        final class Seen: Sendable {
            let value = Mutex<(bytes: [UInt8], held: [Int], finished: Bool)>(([], [], false))
        }
        let gate: UploadGate
        let seen = Seen()

        mutating func write(_ buffer: ByteBuffer) async throws {
            let held = gate.current
            seen.value.withLock {
                $0.bytes += buffer.readableBytesView
                $0.held.append(held)
            }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
            seen.value.withLock { $0.finished = true }
        }
    }

    static func folder() throws -> (folder: URL, paths: [String]) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "export-stream-\(UUID().uuidString)")
        let paths = ["a.png", "b/c.png", "d.json"]
        for (index, path) in paths.enumerated() {
            let url = folder.appending(path: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: UInt8(index), count: 10_000 * (index + 1)).write(to: url)
        }
        return (folder, paths)
    }

    @Test("The slot is held while the zip is written and given back after its last byte, or when dropped unwritten")
    func theSlotIsHeldUntilTheLastByte() async throws {
        let gate = UploadGate(limit: 1, code: "export_in_progress", work: "exports")
        let logger = Logger(label: "test")
        // Setup: an answer made, its body not written yet.
        let written = try Self.folder()
        let body = ExportController.body(
            try await ExportFiles.folder(written), slot: try gate.take(), logger: logger, name: "xcstickers")
        // Check: the slot is still taken: another export is refused.
        #expect(gate.current == 1)
        #expect(throws: Problem.self) { try gate.take() }
        // Action
        let collector = Collector(gate: gate)
        try await body.write(collector)
        // Check: held at every write, free after; the zip holds every file.
        let seen = collector.seen.value.withLock { $0 }
        #expect(seen.finished && seen.held.count == 4 && seen.held.allSatisfy { $0 == 1 })
        #expect(gate.current == 0)
        let entries = try ZipReader.entries(seen.bytes)
        #expect(entries.keys.sorted() == written.paths.sorted() && entries["b/c.png"]?.count == 20_000)
        #expect(!FileManager.default.fileExists(atPath: written.folder.path))
        // Action: an answer dropped unwritten.
        let unsent = try Self.folder()
        do {
            _ = ExportController.body(
                try await ExportFiles.folder(unsent), slot: try gate.take(), logger: logger, name: "xcstickers")
        }
        #expect(gate.current == 0)
        #expect(!FileManager.default.fileExists(atPath: unsent.folder.path))
    }
}
