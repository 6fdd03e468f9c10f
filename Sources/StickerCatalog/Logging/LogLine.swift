import Foundation
import Synchronization

/// How log lines are written: `text`, swift-log's StreamLogHandler layout with `key=value` fields, or `json`, one
/// object a line with the same fields.
public enum LogFormat: String, CaseIterable, Sendable {
    case text, json
}

/// One log line built as bytes, without Foundation's formatting: the per-request line is written for every request,
/// so it costs a copy of each field and nothing more.
public struct LogLine {
    public private(set) var bytes: [UInt8] = []
    let format: LogFormat
    /// Where the line comes from; text writes it before the message.
    private let source: String
    private var fields = 0

    /// Starts a line: the time, level, label and source, and in text the message goes last, so it is kept for `end`.
    public init(format: LogFormat, level: String, label: String, source: String) {
        (self.format, self.source) = (format, source)
        bytes.reserveCapacity(256)
        switch format {
        case .text:
            bytes += LogClock.now()
            bytes += [UInt8(ascii: " ")] + Array(level.utf8) + [UInt8(ascii: " ")]
            Self.appendEscaped(label, to: &bytes, quoted: false)
            bytes.append(UInt8(ascii: ":"))
        case .json:
            bytes.append(UInt8(ascii: "{"))
            field("ts", LogClock.now())
            field("level", level)
            field("label", label)
            field("source", source)
        }
    }

    /// Appends `key` and `value`; keys are the caller's own names, values anything.
    public mutating func field(_ key: String, _ value: String) {
        field(key, Array(value.utf8))
    }

    public mutating func field(_ key: String, _ value: [UInt8]) {
        switch format {
        case .text:
            bytes.append(UInt8(ascii: " "))
            bytes += key.utf8
            bytes.append(UInt8(ascii: "="))
            // A value that could be read as more than one field, or as another line, is written as a JSON string.
            let plain = !value.isEmpty && value.allSatisfy { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "=") }
            if plain { bytes += value } else { Self.appendEscaped(value, to: &bytes, quoted: true) }
        case .json:
            if fields > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendEscaped(Array(key.utf8), to: &bytes, quoted: true)
            bytes.append(UInt8(ascii: ":"))
            Self.appendEscaped(value, to: &bytes, quoted: true)
        }
        fields += 1
    }

    /// Ends the line with its message and a newline.
    public mutating func end(message: String) {
        switch format {
        case .text:
            bytes += Array(" [".utf8)
            Self.appendEscaped(source, to: &bytes, quoted: false)
            bytes += Array("] ".utf8)
            Self.appendEscaped(message, to: &bytes, quoted: false)
            bytes.append(UInt8(ascii: "\n"))
        case .json:
            field("message", message)
            bytes += Array("}\n".utf8)
        }
    }

    static func appendEscaped(_ text: String, to bytes: inout [UInt8], quoted: Bool) {
        appendEscaped(Array(text.utf8), to: &bytes, quoted: quoted)
    }

    /// `value` with quotes, backslashes and control characters escaped as JSON escapes them; in quotes when `quoted`.
    static func appendEscaped(_ value: [UInt8], to bytes: inout [UInt8], quoted: Bool) {
        let hex = Array("0123456789abcdef".utf8)
        if quoted { bytes.append(UInt8(ascii: "\"")) }
        for byte in value {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7F:
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        if quoted { bytes.append(UInt8(ascii: "\"")) }
    }
}

/// Local time as StreamLogHandler writes it (2026-11-22T10:23:34+0000), formatted once a second.
enum LogClock {
    private static let cache = Mutex<(second: Int, text: [UInt8])>((-1, []))

    static func now() -> [UInt8] {
        var now = time(nil)
        if let text = cache.withLock({ $0.second == now ? $0.text : nil }) { return text }
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        let text = buffer.prefix(count).map { UInt8(bitPattern: $0) }
        cache.withLock { $0 = (now, text) }
        return text
    }
}
