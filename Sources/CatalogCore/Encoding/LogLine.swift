import Foundation
import Synchronization

/// How log lines are written: `text`, swift-log's StreamLogHandler layout with `key=value` fields, or `json`, one
/// object a line with the same fields.
package enum LogFormat: String, CaseIterable, Sendable {
    case text, json
}

/// One log line built as bytes, without Foundation's formatting: the per-request line is written for every request,
/// so it costs a copy of each field and nothing more.
package struct LogLine {
    package private(set) var bytes: [UInt8] = []
    package let format: LogFormat
    /// Where the line comes from; text writes it before the message.
    private let source: String
    private var fields = 0

    /// Starts a line: the time, level, label and source, and in text the message goes last, so it is kept for `end`.
    package init(format: LogFormat, level: String, label: String, source: String) {
        (self.format, self.source) = (format, source)
        bytes.reserveCapacity(256)
        switch format {
        case .text:
            bytes.append(contentsOf: LogClock.now())
            bytes.append(UInt8(ascii: " "))
            Self.append(level, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            Self.appendEscaped(label, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        case .json:
            bytes.append(UInt8(ascii: "{"))
            LogClock.now().withUnsafeBytes { field("ts", $0) }
            field("level", level)
            field("label", label)
            field("source", source)
        }
    }

    /// Appends `key` and `value`; keys are the caller's own names, values anything.
    package mutating func field(_ key: String, _ value: String) {
        var value = value
        value.withUTF8 { field(key, UnsafeRawBufferPointer($0)) }
    }

    /// Appends `key` and `value`'s bytes, copied in runs rather than a byte at a time: the per-request line is built
    /// for every request.
    package mutating func field(_ key: String, _ value: UnsafeRawBufferPointer) {
        switch format {
        case .text:
            bytes.append(UInt8(ascii: " "))
            Self.append(key, to: &bytes)
            bytes.append(UInt8(ascii: "="))
            // A value that could be read as more than one field, or as another line, is written as a JSON string.
            if !value.isEmpty && Self.isPlain(value) {
                bytes.append(contentsOf: value)
            } else {
                Self.appendEscaped(value, to: &bytes, quoted: true)
            }
        case .json:
            if fields > 0 { bytes.append(UInt8(ascii: ",")) }
            var key = key
            key.withUTF8 { Self.appendEscaped(UnsafeRawBufferPointer($0), to: &bytes, quoted: true) }
            bytes.append(UInt8(ascii: ":"))
            Self.appendEscaped(value, to: &bytes, quoted: true)
        }
        fields += 1
    }

    /// A non-negative integer field, its digits written straight into the line; with `decimals`, that many of its
    /// last digits after a point.
    package mutating func field(_ key: String, _ value: Int, decimals: Int = 0) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = max(0, value)
            var start = buffer.count
            var written = 0
            repeat {
                if decimals > 0 && written == decimals {
                    start -= 1
                    buffer[start] = UInt8(ascii: ".")
                }
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                written += 1
            } while rest > 0 || written <= decimals && decimals > 0
            field(key, UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// `duration` in milliseconds with three decimals (12.345), written straight into the line.
    package mutating func field(_ key: String, milliseconds duration: Duration) {
        let micros = max(
            0, Int(duration.components.seconds) * 1_000_000 + Int(duration.components.attoseconds / 1_000_000_000_000))
        field(key, micros, decimals: 3)
    }

    /// Whether a text value may go without quotes: no space, control, quote, backslash or `=`.
    private static func isPlain(_ value: UnsafeRawBufferPointer) -> Bool {
        for byte in value
        where byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || byte == UInt8(ascii: "=")
        {
            return false
        }
        return true
    }

    /// A key or a fixed part, which needs no escaping: copied as it is.
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Ends the line with its message and a newline.
    package mutating func end(message: String) {
        switch format {
        case .text:
            bytes.append(contentsOf: " [".utf8)
            Self.appendEscaped(source, to: &bytes)
            bytes.append(contentsOf: "] ".utf8)
            Self.appendEscaped(message, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        case .json:
            field("message", message)
            bytes.append(contentsOf: "}\n".utf8)
        }
    }

    /// `value` with quotes, backslashes and control characters escaped as JSON escapes them; in quotes when `quoted`.
    /// The runs between escapes are copied whole.
    package static func appendEscaped(_ value: UnsafeRawBufferPointer, to bytes: inout [UInt8], quoted: Bool) {
        let hex: StaticString = "0123456789abcdef"
        if quoted { bytes.append(UInt8(ascii: "\"")) }
        var run = 0
        for (index, byte) in value.enumerated()
        where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[run..<index]))
            run = index + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            default:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[run...]))
        if quoted { bytes.append(UInt8(ascii: "\"")) }
    }

    /// `text` escaped, without quotes.
    private static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0), to: &bytes, quoted: false) }
    }
}

/// Local time as StreamLogHandler writes it (2026-11-22T10:23:34+0000), formatted once a second.
package enum LogClock {
    private static let cache = Mutex<(second: Int, text: [UInt8])>((-1, []))

    package static func now() -> [UInt8] {
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
