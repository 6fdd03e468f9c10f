import Foundation
import Logging
import Synchronization

/// A test app's log: warnings and worse printed as usual, and the last lines ServiceLifecycle wrote about its services
/// (debug: which service it is stopping, which finished) and the revision listener's steps kept, to say which service
/// did not stop, and where, when one hangs.
final class ServiceTrail: Sendable {
    private let lines = Mutex<[String]>([])
    static let kept = 40

    /// A logger for an app labelled `label` that prints as before and keeps the trail.
    func logger(_ label: String) -> Logger {
        Logger(label: label) { [self] label in
            Handler(trail: self, label: label, printer: StreamLogHandler.standardOutput(label: label))
        }
    }

    /// The lines kept, oldest first.
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    fileprivate func keep(_ line: String) {
        lines.withLock { lines in
            lines.append(line)
            if lines.count > Self.kept { lines.removeFirst(lines.count - Self.kept) }
        }
    }

    private struct Handler: LogHandler {
        let trail: ServiceTrail
        let label: String
        var printer: StreamLogHandler
        /// Debug, for ServiceLifecycle's lines: so keep a database pool's chatty logger away from this one.
        var logLevel = Logger.Level.debug
        var metadataProvider: Logger.MetadataProvider? {
            get { printer.metadataProvider }
            set { printer.metadataProvider = newValue }
        }
        var metadata: Logger.Metadata {
            get { printer.metadata }
            set { printer.metadata = newValue }
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { printer[metadataKey: key] }
            set { printer[metadataKey: key] = newValue }
        }

        func log(event: LogEvent) {
            if event.level >= .warning {
                printer.log(event: event)
            } else if event.source == "ServiceLifecycle" || event.file.hasSuffix("RevisionListener.swift") {
                trail.keep("\(Date()) \(label): \(event.message) \(event.metadata.map { "\($0)" } ?? "")")
            }
        }
    }
}
