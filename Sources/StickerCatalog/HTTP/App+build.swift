import Hummingbird
import Logging
import NIOCore
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
    /// Memory for encoded manifests and for image bytes, each an LRU.
    public var manifestCacheBytes = 64 << 20
    public var assetCacheBytes = 64 << 20
    /// A connection with no request under way for this long is closed (so is one still sending its request head).
    public var idleTimeout = Duration.seconds(30)
    /// The longest a request body may take to arrive.
    public var bodyTimeout = Duration.seconds(30)
    /// Uploads read, validated and stored at once; more are refused with 503.
    public var maxConcurrentUploads = 8

    public init() {}

    /// The shortest bootstrap token accepted: 16 characters, about 96 bits when random.
    public static let minimumTokenLength = 16
}

/// The composition root: the database, the catalog store, the services and every route.
public func buildApplication(pool: DatabasePool, options: ServiceOptions, registry: PrometheusCollectorRegistry,
                             logger: Logger, revision: CatalogRevision = CatalogRevision()) -> some ApplicationProtocol {
    let catalog = PostgresCatalog(pool: pool, revision: revision, logger: logger)
    let listener = RevisionListener(endpoint: pool.endpoint, revision: revision, logger: logger)
    let router = buildRouter(catalog: catalog, listener: listener, options: options, registry: registry)
    var app = Application(
        router: router,
        server: .http1(configuration: .init(idleTimeout: TimeAmount(options.idleTimeout))),
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "stickerd"),
        services: [pool, listener],
        logger: logger)
    app.beforeServerStarts {
        try await Migrator().migrate(pool, logger: logger)
        if options.demo {
            try await DemoCatalog.loadIfEmpty(into: catalog, validator: StickerValidator(rules: options.rules), logger: logger)
        }
    }
    return app
}

/// Every route of the API, in one place; `methodNotAllowed` adds 405 answers for the methods a path does not serve.
func buildRouter(catalog: PostgresCatalog, listener: RevisionListener, options: ServiceOptions,
                 registry: PrometheusCollectorRegistry, methodNotAllowed: Bool = true) -> Router<AppRequestContext> {
    let linker = AssetLinker(publicBaseURL: options.publicBaseURL)
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.addMiddleware {
        ProblemMiddleware()
        LogRequestsMiddleware(.debug)
        RequestMetricsMiddleware()
        BodyDeadlineMiddleware(timeout: options.bodyTimeout)
    }
    HealthController(pool: catalog.pool, listener: listener, migrator: Migrator(), registry: registry).addRoutes(to: router)
    let manifests = ManifestService(reader: catalog, revision: catalog.revision, linker: linker, capacity: options.manifestCacheBytes)
    ManifestController(service: manifests).addRoutes(to: router.group("v1"))
    AssetController(store: AssetStore(reader: catalog, revision: catalog.revision, capacity: options.assetCacheBytes))
        .addRoutes(to: router.group("v1/assets"))

    let admin = router.group("v1/admin")
        .add(middleware: AdminAuthMiddleware(tokens: catalog, bootstrapToken: options.bootstrapAdminToken))
        .group(context: AdminRequestContext.self)
    let groups = admin.group("groups")
    GroupController(repository: catalog, linker: linker).addRoutes(to: groups)
    StickerController(repository: catalog, validator: StickerValidator(rules: options.rules), linker: linker,
                      uploads: UploadGate(limit: options.maxConcurrentUploads))
        .addRoutes(groups: groups, stickers: admin.group("stickers"))
    FilterController(repository: catalog).addRoutes(to: admin.group("filters"))
    if methodNotAllowed { router.answerMethodNotAllowed() }
    return router
}
