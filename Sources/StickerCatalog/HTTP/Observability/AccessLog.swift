/// The line written for every request (at info, stickerd's default level), with the route, status, duration and
/// bytes: built as bytes and handed to a `LogSink`, so a request never formats through swift-log's metadata or waits
/// on a write (a full buffer drops the line and counts it in `log_lines_dropped_total`).
public struct AccessLog: Sendable {
    public let sink: LogSink
    public let format: LogFormat
    public let label: String

    public init(sink: LogSink = .standardError, format: LogFormat, label: String = "stickerd") {
        (self.sink, self.format, self.label) = (sink, format, label)
    }

    /// One request's line. `path` is without its query, so never a signed URL's signature; no header, so never a token.
    func record(method: String, path: String, route: String, status: Int, elapsed: Duration?, bytes: Int?, requestId: String) {
        var line = LogLine(format: format, level: "info", label: label, source: "StickerCatalog")
        // In the order StreamLogHandler sorts metadata, as every other line has it.
        line.field("bytes", bytes.map { Self.digits($0) } ?? Array("streamed".utf8))
        line.field("duration_ms", elapsed.map(Self.milliseconds) ?? [UInt8(ascii: "-")])
        line.field("method", method)
        line.field("path", path)
        line.field("request_id", requestId)
        line.field("route", route)
        line.field("status", Self.digits(status))
        line.end(message: "request")
        line.bytes.withUnsafeBytes { _ = sink.append($0) }
    }

    /// `duration` in milliseconds with three decimals: 12.345.
    static func milliseconds(_ duration: Duration) -> [UInt8] {
        let micros = max(0, Int(duration.components.seconds) * 1_000_000 + Int(duration.components.attoseconds / 1_000_000_000_000))
        let fraction = digits(micros % 1000)
        return digits(micros / 1000) + [UInt8(ascii: ".")] + [UInt8](repeating: UInt8(ascii: "0"), count: 3 - fraction.count) + fraction
    }

    /// The decimal digits of a non-negative `value`.
    static func digits(_ value: Int) -> [UInt8] {
        guard value > 0 else { return [UInt8(ascii: "0")] }
        var out: [UInt8] = [], rest = value
        while rest > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        return out.reversed()
    }
}
