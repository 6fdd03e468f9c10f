import CatalogCore

/// The line written for every request (at info, stickerd's default level), with the route, status, duration and
/// bytes: built as bytes and handed to a `LogSink`, so a request never formats through swift-log's metadata or waits
/// on a write (a full buffer drops the line and counts it in `log_lines_dropped_total`).
package struct AccessLog: Sendable {
    package let sink: LogSink
    package let format: LogFormat
    package let label: String

    package init(sink: LogSink = .standardError, format: LogFormat, label: String = "stickerd") {
        (self.sink, self.format, self.label) = (sink, format, label)
    }

    /// One request's line. `path` is without its query, so never a signed URL's signature; no header, so never a token.
    package func record(
        method: String, path: String, route: String, status: Int, elapsed: Duration?, bytes: Int?, requestId: String
    ) {
        var line = LogLine(format: format, level: "info", label: label, source: "StickerCatalog")
        // In the order StreamLogHandler sorts metadata, as every other line has it.
        if let bytes { line.field("bytes", bytes) } else { line.field("bytes", "streamed") }
        if let elapsed { line.field("duration_ms", milliseconds: elapsed) } else { line.field("duration_ms", "-") }
        line.field("method", method)
        line.field("path", path)
        line.field("request_id", requestId)
        line.field("route", route)
        line.field("status", status)
        line.end(message: "request")
        line.bytes.withUnsafeBytes { _ = sink.append($0) }
    }
}
