import CatalogServices
import Crypto
import Hummingbird
import Logging
import NIOCore
import Prometheus

/// Liveness, readiness and Prometheus metrics for operators.
package struct HealthController {
    package let readiness: Readiness
    package let registry: PrometheusCollectorRegistry
    package let durations: RequestDurations
    /// Reads the gauges the store and the services keep, before each scrape.
    package let updateGauges: @Sendable () async -> Void
    package let draining: Draining
    /// The digest of `--metrics-token`, compared in constant time; nil: metrics for anyone, when `metricsOpen`.
    package let metricsDigest: SHA256Digest?
    /// Without a token, whether metrics are served at all (a loopback listener only).
    package let metricsOpen: Bool

    package init(
        readiness: Readiness, registry: PrometheusCollectorRegistry, durations: RequestDurations,
        updateGauges: @escaping @Sendable () async -> Void, draining: Draining, metricsToken: String?,
        metricsOpen: Bool = true
    ) {
        (self.readiness, self.registry, self.durations) = (readiness, registry, durations)
        (self.updateGauges, self.draining, self.metricsOpen) = (updateGauges, draining, metricsOpen)
        metricsDigest = metricsToken.map { SHA256.hash(data: Array($0.utf8)) }
    }

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.get("healthz", use: health)
        router.get("readyz", use: ready)
        router.get("metrics", use: metrics)
    }

    /// The process is up.
    @Sendable package func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        Self.json(#"{"status":"ok"}"#)
    }

    /// The database answers (503 `database_unavailable` within 2 s when it does not), every migration this binary
    /// carries is applied, and this replica keeps up with catalog changes.
    @Sendable package func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard !draining.isDraining else {
            throw Problem(.serviceUnavailable, "not_ready", "This replica is shutting down.")
        }
        guard try await readiness.migrationsApplied(context.logger) else {
            throw Problem(.serviceUnavailable, "not_ready", "Database migrations are not all applied.")
        }
        guard readiness.keepsUp() else {
            throw Problem(.serviceUnavailable, "not_ready", "This replica has not read the catalog revision lately.")
        }
        return Self.json(#"{"status":"ready"}"#)
    }

    /// The metrics, to whoever holds `--metrics-token` when one is set: they tell traffic, errors and the catalog's
    /// size.
    @Sendable package func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        if metricsDigest == nil, !metricsOpen {
            var problem = Problem(
                .unauthorized, "unauthorized",
                "This replica listens beyond loopback: its metrics need a --metrics-token (STICKER_METRICS_TOKEN).")
            problem.headers[.wwwAuthenticate] = #"Bearer realm="stickerd-metrics""#
            throw problem
        }
        if let metricsDigest {
            let header = request.headers[.authorization] ?? ""
            let token =
                header.lowercased().hasPrefix("bearer ")
                ? header.utf8.dropFirst(7) : header.utf8.dropFirst(header.utf8.count)
            // SHA256Digest's == compares every byte whatever the first difference.
            guard !token.isEmpty, SHA256.hash(data: Array(token)) == metricsDigest else {
                var problem = Problem(
                    .unauthorized, "unauthorized",
                    "This replica's metrics need its --metrics-token: send 'Authorization: Bearer TOKEN'.")
                problem.headers[.wwwAuthenticate] = #"Bearer realm="stickerd-metrics""#
                throw problem
            }
        }
        await updateGauges()
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        bytes += durations.render().utf8
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    package static func json(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// What `/readyz` asks of the store: whether every migration this binary carries is applied, and whether this replica
/// has read the catalog revision lately.
package struct Readiness: Sendable {
    package var migrationsApplied: @Sendable (Logger) async throws -> Bool
    package var keepsUp: @Sendable () -> Bool

    package init(
        migrationsApplied: @escaping @Sendable (Logger) async throws -> Bool, keepsUp: @escaping @Sendable () -> Bool
    ) {
        (self.migrationsApplied, self.keepsUp) = (migrationsApplied, keepsUp)
    }
}
