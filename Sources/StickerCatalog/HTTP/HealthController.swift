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

    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
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
