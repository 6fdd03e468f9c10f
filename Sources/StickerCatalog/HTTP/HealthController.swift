import Crypto
import Hummingbird
import Logging
import NIOCore
import Prometheus

/// Liveness, readiness and Prometheus metrics for operators.
struct HealthController {
    let pool: DatabasePool
    let listener: RevisionListener
    let migrator: Migrator
    let registry: PrometheusCollectorRegistry
    let durations: RequestDurations
    let gauges: ServiceGauges
    let draining: Draining
    /// The digest of `--metrics-token`, compared in constant time; nil: metrics for anyone.
    let metricsDigest: SHA256Digest?

    init(pool: DatabasePool, listener: RevisionListener, migrator: Migrator, registry: PrometheusCollectorRegistry,
         durations: RequestDurations, gauges: ServiceGauges, draining: Draining, metricsToken: String?) {
        (self.pool, self.listener, self.migrator, self.registry) = (pool, listener, migrator, registry)
        (self.durations, self.gauges, self.draining) = (durations, gauges, draining)
        metricsDigest = metricsToken.map { SHA256.hash(data: Array($0.utf8)) }
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("healthz", use: health)
        router.get("readyz", use: ready)
        router.get("metrics", use: metrics)
    }

    /// The process is up.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        Self.json(#"{"status":"ok"}"#)
    }

    /// The database answers (503 `database_unavailable` within 2 s when it does not), every migration this binary
    /// carries is applied, and this replica keeps up with catalog changes.
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard !draining.isDraining else {
            throw Problem(.serviceUnavailable, "not_ready", "This replica is shutting down.")
        }
        guard try await migrator.isCurrent(pool, logger: context.logger) else {
            throw Problem(.serviceUnavailable, "not_ready", "Database migrations are not all applied.")
        }
        guard listener.isCurrent else {
            throw Problem(.serviceUnavailable, "not_ready", "This replica has not read the catalog revision lately.")
        }
        return Self.json(#"{"status":"ready"}"#)
    }

    /// The metrics, to whoever holds `--metrics-token` when one is set: they tell traffic, errors and the catalog's size.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let metricsDigest {
            let header = request.headers[.authorization] ?? ""
            let token = header.lowercased().hasPrefix("bearer ") ? header.utf8.dropFirst(7) : header.utf8.dropFirst(header.utf8.count)
            // SHA256Digest's == compares every byte whatever the first difference.
            guard !token.isEmpty, SHA256.hash(data: Array(token)) == metricsDigest else {
                var problem = Problem(.unauthorized, "unauthorized", "This replica's metrics need its --metrics-token: send 'Authorization: Bearer TOKEN'.")
                problem.headers[.wwwAuthenticate] = #"Bearer realm="stickerd-metrics""#
                throw problem
            }
        }
        await gauges.update()
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        bytes += durations.render().utf8
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
