import Foundation
import Logging

/// Writes log lines to standard error in swift-log's StreamLogHandler format, but renders metadata only when a line
/// is written. StreamLogHandler renders it whenever it is set, and Hummingbird sets a request id on every request:
/// that was about 5% of a cached manifest's cost in `make bench`, for lines that are never written.
struct ConsoleLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit { all.merge(explicit) { _, new in new } }
        let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(Self.timestamp()) \(level) \(label):\(rendered.isEmpty ? "" : " " + rendered) [\(source)] \(message)\n"
        // One write(2) per line, so lines from concurrent tasks do not interleave.
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Local time as StreamLogHandler writes it: 2026-11-22T10:23:34+0000.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
