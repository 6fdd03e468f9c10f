import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Logging

/// Writes log lines through `LogSink.standardError`, rendering metadata only when a line is written. StreamLogHandler
/// renders it whenever it is set, and Hummingbird sets a request id on every request: that was about 5% of a cached
/// manifest's cost in `make bench`, for lines that are never written. Hummingbird's `hb.request.id` is written
/// `request_id`. The per-request line does not come here: `AccessLog` writes it.
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

    func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata { all.merge(explicit) { _, new in new } }
        if let id = all.removeValue(forKey: "hb.request.id") { all["request_id"] = id }
        var text = LogLine(format: format, level: event.level.rawValue, label: label, source: event.source)
        let reserved: Set = ["ts", "level", "label", "source", "message"]
        for (key, value) in all.sorted(by: { $0.key < $1.key }) where format == .text || !reserved.contains(key) {
            text.field(key, "\(value)")
        }
        text.end(message: event.message.description)
        LogSink.standardError.append(text.bytes)
    }
}
