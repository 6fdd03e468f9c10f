import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Hummingbird
import Logging
import NIOCore
import Prometheus
import StickerImage

/// The composition root: the database, the catalog store, the services and every route.
/// `draining` turns `/readyz` to 503 when shutdown begins (`DrainService`); `standbys` are hot standbys of `pool`'s
/// primary for the big reads (`ReadReplicas`).
package func buildApplication(
    pool: DatabasePool, options: ServiceOptions, registry: PrometheusCollectorRegistry,
    logger: Logger, revision: CatalogRevision = CatalogRevision(),
    draining: Draining = Draining(), standbys: [DatabasePool] = []
) -> some ApplicationProtocol {
    let changes = EntitlementChanges()
    let replicas = standbys.isEmpty ? nil : ReadReplicas(pools: standbys, registry: registry)
    let store = PostgresStore(
        pool: pool, revision: revision, logger: logger, entitlementChanges: changes, replicas: replicas)
    let repositories = PostgresRepositories(
        store: store, quarantineLimit: options.limits.quarantinedDeliveries,
        quarantineBytes: options.limits.quarantinedBytes)
    let listener = RevisionListener(
        endpoint: pool.endpoint, revision: revision, logger: logger, entitlementChanges: changes)
    let scheduler = CatalogScheduler(endpoint: pool.endpoint, clock: options.database.scheduleClock, logger: logger)
    let (_, manifests, responder, usage, intake) = buildRouter(
        ports: repositories.ports(listener: listener), options: options, registry: registry, logger: logger,
        draining: draining, boundary: scheduler.nextBoundary)
    let stalls = registry.makeCounter(
        descriptor: .init(
            metricName: "http_write_stalls", unitName: "total",
            helpText: "Connections closed because their answer made no progress (the client stopped reading)."))
    let placeholders = PlaceholderFill(maintenance: PostgresMaintenance(store: store), logger: logger)
    let sweeper = DeliverySweeper(
        intake: intake, logger: logger, interval: options.database.deliverySweepInterval)
    var app = Application(
        responder: responder(),
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    WriteStallHandler(
                        timeout: TimeAmount(options.server.writeStallTimeout),
                        sendBuffer: options.server.sendBufferBytes, closed: { stalls.increment() })
                ],
                idleTimeout: TimeAmount(options.server.idleTimeout))),
        configuration: .init(
            address: .hostname(options.server.host, port: options.server.port), serverName: "stickerd"),
        // The flusher after the pools: a graceful shutdown stops services last to first, so it writes its last counts
        // while the pools still serve.
        services: [pool] + standbys + [listener, sweeper, scheduler, placeholders, usage],
        onServerRunning: {
            [
                failures = AcceptFailures(registry: registry, logger: logger),
                limit = ConnectionLimit(limit: options.server.maxConnections, registry: registry, logger: logger)
            ] channel in
            await failures.watch(channel)
            await limit.watch(channel)
        },
        logger: logger)
    app.beforeServerStarts {
        _ = try await Migrator().migrate(pool, logger: logger, patience: options.database.startupPatience)
        if options.demo {
            try await DemoCatalog.loadIfEmpty(
                into: repositories.catalog, validator: StickerValidator(rules: options.limits.rules), logger: logger)
        }
        scheduler.begin()
        placeholders.begin()
        await manifests.warm()
    }
    return app
}

/// Every route of the API, in one place, the manifest service behind them (warmed before the server starts), and what
/// makes the `ServiceResponder` in front of the router (called once, by the application: making the router's responder
/// adds its HEAD routes); `methodNotAllowed` adds 405 answers for the methods a path does not serve; `boundary` is the
/// next schedule boundary as this replica's `CatalogScheduler` knows it. The usage flusher and the purchase intake are
/// handed back for the services that run beside the routes (one intake: the webhook routes and the sweeper share it).
/// It reaches the outside only through `ports`, so routes are tested without a database (`CatalogHTTPTests`).
package func buildRouter(
    ports: CatalogPorts, options: ServiceOptions, registry: PrometheusCollectorRegistry, logger: Logger,
    draining: Draining = Draining(), methodNotAllowed: Bool = true, boundary: NextBoundary = NextBoundary()
)
    -> (
        router: Router<AppRequestContext>, manifests: ManifestService, responder: () -> ServiceResponder,
        usage: UsageFlusher, intake: PurchaseIntake
    )
{
    let purchases = ports.purchases
    let signer = AssetSigner(
        key: options.access.assetSigningKey ?? (0..<32).map { _ in UInt8.random(in: 0...255) },
        lifetime: options.access.assetURLLifetime)
    let linker = AssetLinker(publicBaseURL: options.server.publicBaseURL, signer: signer)
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    let unknownMethods = UnknownMethods()
    let durations = RequestDurations(timed: options.logging.requestDurations)
    let metrics = CatalogMetrics(registry: registry)
    let problems = ProblemMiddleware<AppRequestContext>(unknownMethods: unknownMethods)
    router.add(middleware: problems)
    // Only the groups that read bodies pay for their deadline: a cached manifest is not a frame deeper for it.
    let deadline = BodyDeadlineMiddleware<AppRequestContext>(timeout: options.server.bodyTimeout)
    ConsoleController(publicBaseURL: options.server.publicBaseURL).addRoutes(to: router)
    WebController(demo: options.demo ? .demoChat : nil).addRoutes(to: router)
    let manifests = ManifestService(
        reader: ports.reader, revision: ports.revision, linker: linker, capacity: options.caches.manifestBytes,
        logger: logger, counters: CacheCounters(registry: registry, cache: "manifest"))
    let entitlements = EntitlementCache(
        repository: purchases, changes: ports.entitlementChanges, sandbox: options.purchases.sandbox,
        capacity: options.caches.entitlementBytes)
    let users = UserAuthMiddleware(tokens: options.access.userTokens)
    let facts = ClientFactsMiddleware(countryHeader: options.server.countryHeader)
    let client = router.group("v1").add(middleware: users).add(middleware: facts)
    let manifestController = ManifestController(service: manifests, entitlements: entitlements)
    manifestController.addRoutes(to: client)
    let usage = UsageRoutes(
        repository: ports.usage, manifests: manifests, entitlements: entitlements, options: options,
        registry: registry, logger: logger, draining: draining)
    usage.addRoutes(to: client, deadline: deadline)
    let search = SearchService(
        manifests: manifests, capacity: options.caches.searchBytes, clock: options.database.scheduleClock,
        boundary: boundary, logger: logger,
        popularity: { [trending = usage.trending] in trending.popularity(for: $0) })
    SearchController(service: search, entitlements: entitlements).addRoutes(to: client)
    let feed = ChangeFeed(manifests: manifests, log: ports.changes)
    ChangeFeedController(feed: feed, entitlements: entitlements).addRoutes(to: client)
    let hub = EventHub(
        limits: options.streams.limits, revision: ports.revision, entitlements: ports.entitlementChanges)
    EventController(
        hub: hub, feed: feed, entitlements: entitlements, heartbeat: options.streams.heartbeat,
        lifetime: options.streams.lifetime, proxies: options.server.trustedProxies, metrics: metrics,
        tickets: EventTickets(signer: signer)
    ).addRoutes(to: client, me: client.group("me", context: UserRequestContext.self))
    let assets = AssetStore(
        reader: ports.reader, revision: ports.revision, capacity: options.caches.assetBytes,
        counters: CacheCounters(registry: registry, cache: "asset"))
    let assetController = AssetController(
        store: assets, manifests: manifests, signer: signer,
        bundles: BundleGate(total: options.limits.bundlesInFlight, perAddress: options.limits.bundlesPerAddress),
        proxies: options.server.trustedProxies)
    assetController.addRoutes(
        to: router.group("v1/assets"), bodies: router.group("v1/assets").add(middleware: deadline))
    let uploads = UploadGate(limit: options.limits.concurrentUploads)
    let gauges = ServiceGauges(
        registry: registry, revision: ports.revision, draining: draining, database: ports.health, hub: hub,
        manifests: manifests, search: search, assets: assets, uploads: uploads,
        quarantine: purchases,
        log: options.logging.accessLog?.sink)
    let readiness = Readiness(
        migrationsApplied: { [health = ports.health] _ in try await health.migrationsApplied() },
        keepsUp: { [health = ports.health] in health.keepsUp })
    HealthController(
        readiness: readiness, registry: registry, durations: durations, updateGauges: { await gauges.update() },
        draining: draining, metricsToken: options.access.metricsToken, metricsOpen: options.metricsOpen
    ).addRoutes(to: router)
    let intake = PurchaseIntake(repository: purchases, configuration: options.purchases)
    MeController(repository: purchases, sandbox: options.purchases.sandbox).addRoutes(
        to: client.group("me", context: UserRequestContext.self))
    PurchaseController(intake: intake).addRoutes(
        to: client.group("purchases").add(middleware: deadline).group(context: UserRequestContext.self))
    WebhookController(intake: intake, metrics: metrics).addRoutes(
        to: router.group("v1/webhooks").add(middleware: deadline))

    let authenticator = AdminAuthenticator(
        tokens: ports.adminTokens, bootstrapToken: options.access.bootstrapAdminToken,
        proxies: options.server.trustedProxies,
        attempts: FailedAttempts(limit: options.limits.adminAuthFailuresPerMinute))
    let authenticated = router.group("v1/admin")
        .add(middleware: deadline)
        .add(middleware: AdminAuthMiddleware(authenticator: authenticator))
        .group(context: AdminRequestContext.self)
    let idempotency = IdempotencyMiddleware(
        repository: ports.idempotency, maxBodyBytes: options.limits.rules.maxBytes + UploadReader.formOverhead)
    let admin = authenticated.group().add(middleware: idempotency)
    let groups = admin.group("groups")
    GroupController(repository: ports.groups, linker: linker).addRoutes(to: groups)
    StickerController(
        repository: ports.stickers, validator: StickerValidator(rules: options.limits.rules), linker: linker,
        uploads: uploads, metrics: metrics
    )
    .addRoutes(authenticated: authenticated, idempotency: idempotency, stickers: admin.group("stickers"))
    FilterController(repository: ports.filters).addRoutes(to: admin.group("filters"))
    AdminEntitlementController(repository: purchases, sandbox: options.purchases.sandbox).addRoutes(
        to: admin.group("users"))
    AdminPreviewController(service: manifests, entitlements: entitlements).addRoutes(to: admin.group("users"))
    ManifestPreviewController(
        schedule: ports.schedule, manifests: manifests, entitlements: entitlements,
        clock: options.database.scheduleClock
    )
    .addRoutes(to: admin)
    ReleaseController(repository: ports.releases, manifests: manifests, entitlements: entitlements).addRoutes(
        to: admin.group("releases"))
    AdminWebhookController(intake: intake).addRoutes(to: admin.group("webhook-events"))
    ExportController(manifests: manifests, reader: ports.reader, rules: options.limits.rules).addRoutes(
        to: admin.group("exports"))
    UsageStatsController(repository: ports.usage).addRoutes(to: authenticated.group("stats"))
    // Origins are checked when options are parsed (`stickerd serve --cors-origin`); one that is not is dropped.
    let crossOrigin = CrossOrigin(options.server.corsOrigins.compactMap(CrossOrigin.normalized)) ?? CrossOrigin([])!
    if methodNotAllowed {
        router.answerMethodNotAllowed(unknownMethods: unknownMethods, admin: authenticator, crossOrigin: crossOrigin)
    }
    let answered = crossOrigin.origins.isEmpty ? nil : crossOrigin
    let hot = HotRoutes(assets: assetController, manifests: manifestController, users: users, facts: facts)
    let observation = RequestObservation(durations: durations, accessLog: options.logging.accessLog)
    return (
        router, manifests,
        {
            ServiceResponder(
                router: router.buildResponder(), hot: hot, observation: observation, problems: problems,
                crossOrigin: answered)
        },
        usage.flusher, intake
    )
}
