import Hummingbird
import Logging
import PostgresNIO
import Prometheus
import StickerImage

/// What `stickerd serve` is configured with.
public struct ServiceOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Absolute base for asset URLs (a CDN, say); nil serves them as paths on this service.
    public var publicBaseURL: String?
    /// An admin token accepted as is (`STICKER_ADMIN_TOKEN`), to bootstrap a fresh installation.
    public var bootstrapAdminToken: String?
    /// Load the candy demo catalog when the catalog is empty.
    public var demo = false
    public var rules = StickerRules()

    public init() {}
}

/// The composition root: the catalog store, the services and every route.
public func buildApplication(client: PostgresClient, options: ServiceOptions, registry: PrometheusCollectorRegistry,
                             logger: Logger) -> some ApplicationProtocol {
    let revision = CatalogRevision()
    let catalog = PostgresCatalog(client: client, revision: revision, logger: logger)
    let router = buildRouter(catalog: catalog, client: client, options: options, registry: registry)
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "stickerd"),
        services: [client, RevisionListener(client: client, revision: revision, logger: logger)],
        logger: logger)
    app.beforeServerStarts {
        try await Migrator().migrate(client, logger: logger)
        if options.demo {
            try await DemoCatalog.loadIfEmpty(into: catalog, validator: StickerValidator(rules: options.rules), logger: logger)
        }
    }
    return app
}

/// Every route of the API, in one place.
public func buildRouter(catalog: PostgresCatalog, client: PostgresClient, options: ServiceOptions,
                        registry: PrometheusCollectorRegistry) -> Router<AppRequestContext> {
    let linker = AssetLinker(publicBaseURL: options.publicBaseURL)
    let router = Router(context: AppRequestContext.self)
    router.addMiddleware {
        ProblemMiddleware()
        LogRequestsMiddleware(.debug)
        RequestMetricsMiddleware()
    }
    HealthController(client: client, migrator: Migrator(), registry: registry).addRoutes(to: router)
    let manifests = ManifestService(reader: catalog, revision: catalog.revision, linker: linker)
    ManifestController(service: manifests).addRoutes(to: router.group("v1"))
    AssetController(store: AssetStore(reader: catalog)).addRoutes(to: router.group("v1/assets"))

    let admin = router.group("v1/admin")
        .add(middleware: AdminAuthMiddleware(tokens: catalog, bootstrapToken: options.bootstrapAdminToken))
        .group(context: AdminRequestContext.self)
    let groups = admin.group("groups")
    GroupController(repository: catalog, linker: linker).addRoutes(to: groups)
    StickerController(repository: catalog, validator: StickerValidator(rules: options.rules), linker: linker)
        .addRoutes(groups: groups, stickers: admin.group("stickers"))
    FilterController(repository: catalog).addRoutes(to: admin.group("filters"))
    return router
}
