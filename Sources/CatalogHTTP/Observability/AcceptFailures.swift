import Foundation
import Logging
import NIOCore
import Prometheus

/// The connections the listening socket could not accept, counted (`accept_failures_total{errno}`) and logged. Out of
/// file descriptors (EMFILE) or memory, NIO's server backs off a second and tries again, saying nothing: without this
/// a replica whose descriptors are all taken only looks slow, health checks included. NIO's backoff bounds these to
/// about one a second, so each is logged.
package struct AcceptFailures: Sendable {
    package let registry: PrometheusCollectorRegistry
    package let logger: Logger

    package init(registry: PrometheusCollectorRegistry, logger: Logger) {
        (self.registry, self.logger) = (registry, logger)
        // Served from the start, at 0, so that an alert's rate sees the first one.
        for name in ["EMFILE", "ENFILE"] { counter(name) }
    }

    /// Watches `channel`, the listening socket, from the front of its pipeline (before NIO's backoff swallows errors).
    package func watch(_ channel: any Channel) async {
        let failures = self
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(Watcher(failures: failures), position: .first)
        }.get()
    }

    /// Counts and logs one failed accept.
    package func record(_ error: IOError) {
        let name = Self.errnoName(error.errnoCode)
        counter(name).increment()
        let advice =
            name == "EMFILE"
            ? "this process has all \(FileLimit.softLimit()) of its file descriptors open (RLIMIT_NOFILE)"
            : "\(error)"
        logger.warning(
            "Could not accept a connection: \(advice); new connections wait in the backlog, retrying in 1 s",
            metadata: ["errno": "\(name)"])
    }

    @discardableResult
    private func counter(_ errno: String) -> Prometheus.Counter {
        registry.makeCounter(
            descriptor: .init(
                metricName: "accept_failures", unitName: "total",
                helpText:
                    "Connections the listening socket could not accept, by errno (EMFILE: out of file descriptors)."),
            labels: [("errno", errno)])
    }

    package static func errnoName(_ code: CInt) -> String {
        switch code {
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ENOBUFS: "ENOBUFS"
        case ENOMEM: "ENOMEM"
        default: "errno_\(code)"
        }
    }

    /// Sees the listening socket's errors first, and passes them on to NIO's backoff.
    private final class Watcher: ChannelInboundHandler {
        package typealias InboundIn = NIOAny
        package let failures: AcceptFailures

        package init(failures: AcceptFailures) { self.failures = failures }

        package func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if let error = error as? IOError { failures.record(error) }
            context.fireErrorCaught(error)
        }
    }
}
