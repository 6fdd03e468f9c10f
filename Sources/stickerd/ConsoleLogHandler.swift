import Foundation
import Logging

/// How log lines are written: `text`, swift-log's StreamLogHandler layout with `key=value` fields, or `json`, one
/// object a line with the same fields.
enum LogFormat: String, CaseIterable, Sendable {
    case text, json
}

/// Writes log lines to standard error, rendering metadata only when a line is written. StreamLogHandler renders it
/// whenever it is set, and Hummingbird sets a request id on every request: that was about 5% of a cached manifest's
/// cost in `make bench`, for lines that are never written. Hummingbird's `hb.request.id` is written `request_id`.
struct ConsoleLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    let format: LogFormat
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, level: Logger.Level, format: LogFormat = .text) {
        self.label = label
        self.logLevel = level
        self.format = format
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
        if let id = all.removeValue(forKey: "hb.request.id") { all["request_id"] = id }
        let fields = all.sorted { $0.key < $1.key }
        let text: String
        switch format {
        case .text:
            let rendered = fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            text = "\(Self.timestamp()) \(level) \(label):\(rendered.isEmpty ? "" : " " + rendered) [\(source)] \(message)\n"
        case .json:
            var object = [("ts", Self.timestamp()), ("level", level.rawValue), ("label", label), ("source", source),
                          ("message", message.description)]
            object += fields.filter { !["ts", "level", "label", "source", "message"].contains($0.key) }.map { ($0.key, "\($0.value)") }
            text = "{" + object.map { "\(Self.quoted($0.0)):\(Self.quoted($0.1))" }.joined(separator: ",") + "}\n"
        }
        // One write(2) per line, so lines from concurrent tasks do not interleave.
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
