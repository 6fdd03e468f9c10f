import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import Prometheus

/// Liveness, readiness and Prometheus metrics for operators.
struct HealthController {
    let client: PostgresClient
    let migrator: Migrator
    let registry: PrometheusCollectorRegistry

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("healthz", use: health)
        router.get("readyz", use: ready)
        router.get("metrics", use: metrics)
    }

    /// The process is up.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        Self.json(#"{"status":"ok"}"#)
    }

    /// The database answers and every migration this binary carries is applied.
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        let current: Bool
        do {
            current = try await migrator.isCurrent(client, logger: context.logger)
        } catch {
            context.logger.warning("Readiness check failed", metadata: ["error": "\(String(reflecting: error))"])
            throw Problem(.serviceUnavailable, "not_ready", "The database cannot be reached.")
        }
        guard current else { throw Problem(.serviceUnavailable, "not_ready", "Database migrations are not all applied.") }
        return Self.json(#"{"status":"ready"}"#)
    }

    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
