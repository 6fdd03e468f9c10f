import ArgumentParser
import Foundation
import Hummingbird
import Metrics
import PostgresNIO
import Prometheus
import StickerCatalog

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP API (the default command).",
        discussion: """
            Applies pending migrations first. Stops on SIGINT or SIGTERM after finishing requests in flight, \
            then stops the embedded PostgreSQL cluster if it started it.
            Environment: STICKER_ADMIN_TOKEN (an admin token accepted as is), STICKER_PUBLIC_BASE_URL (asset URLs \
            become absolute under it, e.g. a CDN).
            """)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Flag(help: "Load the candy demo catalog (Chewy, Chocolate, Crunchy and the chocoholic filter) when the catalog is empty.")
    var demo = false

    @OptionGroup(title: "Animated stickers") var limits: LimitOptions

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let logger = try database.logger("stickerd")
        let environment = ProcessInfo.processInfo.environment
        var options = ServiceOptions()
        (options.host, options.port, options.demo, options.rules) = (host, port, demo, limits.rules)
        options.publicBaseURL = environment["STICKER_PUBLIC_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        options.bootstrapAdminToken = environment["STICKER_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if options.bootstrapAdminToken == nil {
            logger.notice("STICKER_ADMIN_TOKEN is not set: the admin API accepts only tokens made with `stickerd token create`")
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let db = try database.open(logger: logger)
        defer { db.embedded?.stop() }
        let client = PostgresClient(configuration: db.configuration, backgroundLogger: logger)
        let app = buildApplication(client: client, options: options, registry: registry, logger: logger)
        try await app.runService()
    }
}
