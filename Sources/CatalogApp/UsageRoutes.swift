import CatalogCore
import CatalogHTTP
import CatalogServices
import Hummingbird
import Logging
import Prometheus

/// Usage counting and trending, composed: the tally every `POST /v1/usage` adds to, the flusher that writes it, the
/// scores read back, and the routes over them.
struct UsageRoutes {
    let recorder: UsageRecorder
    let flusher: UsageFlusher
    let trending: TrendingService
    let entitlements: EntitlementCache
    let proxies: TrustedProxies

    init(
        repository: any UsageRepository, manifests: ManifestService, entitlements: EntitlementCache,
        options: ServiceOptions, registry: PrometheusCollectorRegistry, logger: Logger, draining: Draining
    ) {
        let metrics = UsageMetrics(registry: registry)
        let tally = UsageTally(perSourceHour: options.usage.perSourceHour)
        let directories = StickerDirectories(manifests: manifests)
        recorder = UsageRecorder(
            directories: directories, tally: tally,
            perAddress: UsageAllowance(perMinute: options.usage.perAddressPerMinute),
            perUser: UsageAllowance(perMinute: options.usage.perUserPerMinute),
            clock: options.database.scheduleClock, metrics: metrics)
        flusher = UsageFlusher(
            tally: tally, repository: repository, interval: options.usage.flushInterval, metrics: metrics,
            logger: logger, draining: draining)
        trending = TrendingService(
            scores: TrendingScores(repository: repository, interval: options.usage.scoresInterval, logger: logger),
            directories: directories, manifests: manifests, capacity: options.caches.trendingBytes)
        (self.entitlements, proxies) = (entitlements, options.server.trustedProxies)
    }

    /// `POST /v1/usage` (its body under the body deadline) and `GET /v1/trending`.
    func addRoutes(
        to client: RouterGroup<AppRequestContext>, deadline: BodyDeadlineMiddleware<AppRequestContext>
    ) {
        UsageController(recorder: recorder, proxies: proxies).addRoutes(to: client.group().add(middleware: deadline))
        TrendingController(service: trending, entitlements: entitlements).addRoutes(to: client)
    }
}
