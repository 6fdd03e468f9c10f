import Logging
import NIOCore
import Prometheus

/// Stops accepting while `limit` connections are open, so that clients can never take the file descriptors the
/// process needs for itself: its database connections, its files, and libdispatch's, which traps the whole process when
/// it cannot open one (its thread-pool monitor reads /proc/<tid>/stat every second while work waits). Connections past
/// the limit wait in the listen backlog until one closes, as they would have at EMFILE. Each pause is counted
/// (`connection_limit_pauses_total`) and logged, at most every 10 s.
package struct ConnectionLimit: Sendable {
    /// nil: no limit (the counter is still served, at 0).
    package let limit: Int?
    package let logger: Logger
    private let pauses: Prometheus.Counter

    package init(limit: Int?, registry: PrometheusCollectorRegistry, logger: Logger) {
        (self.limit, self.logger) = (limit, logger)
        pauses = registry.makeCounter(
            descriptor: .init(
                metricName: "connection_limit_pauses", unitName: "total",
                helpText: "Times the listener stopped accepting because all the connections it may hold were open."))
    }

    /// Watches `channel`, the listening socket, from the front of its pipeline, where every accept's read passes.
    package func watch(_ channel: any Channel) async {
        guard let limit else { return }
        let (logger, pauses) = (logger, pauses)
        try? await channel.eventLoop.submit {
            let gate = Gate(
                limit: limit, paused: { pauses.increment() },
                log: { pausesSinceLastLog in
                    logger.warning(
                        """
                        All \(limit) connections this process may hold are open (its file descriptors, less those the database \
                        and the process need): new connections wait in the backlog until one closes
                        """, metadata: ["pauses": "\(pausesSinceLastLog)"])
                })
            try channel.pipeline.syncOperations.addHandler(gate, position: .first)
        }.get()
    }

    /// Holds the listener's reads (each read accepts) while the limit is reached, and lets the held one go when a
    /// connection closes. Runs on the listener's event loop; closes arrive from the connections' loops.
    package final class Gate: ChannelDuplexHandler {
        package typealias InboundIn = any Channel
        package typealias OutboundIn = Never
        private let limit: Int
        private let paused: () -> Void
        private let log: (_ pausesSinceLastLog: Int) -> Void
        private var open = 0
        private var holding = false
        private var pausesUnlogged = 0
        private var lastLog: NIODeadline?

        package init(limit: Int, paused: @escaping () -> Void, log: @escaping (Int) -> Void) {
            (self.limit, self.paused, self.log) = (limit, paused, log)
        }

        package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let child = unwrapInboundIn(data)
            open += 1
            let gate = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let loop = context.eventLoop
            child.closeFuture.whenComplete { _ in loop.execute { gate.value.0.closed(context: gate.value.1) } }
            context.fireChannelRead(data)
        }

        package func read(context: ChannelHandlerContext) {
            guard open >= limit else { return context.read() }
            guard !holding else { return }
            holding = true
            paused()
            pausesUnlogged += 1
            let now = NIODeadline.now()
            if lastLog.map({ now - $0 >= .seconds(10) }) ?? true {
                log(pausesUnlogged)
                (lastLog, pausesUnlogged) = (now, 0)
            }
        }

        private func closed(context: ChannelHandlerContext) {
            open -= 1
            if holding, open < limit {
                holding = false
                context.read()
            }
        }
    }
}
