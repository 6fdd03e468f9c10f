#if !os(Linux)
    import Foundation
    import Logging
    import OpenAPIRuntime

    extension StickerSync {
        /// A sync whose requests go through URLSession sessions made from (a copy of) `configuration`, so what the app
        /// sets there holds: Low Data Mode (`allowsConstrainedNetworkAccess = false`), `allowsCellularAccess`,
        /// `waitsForConnectivity`, a proxy. The sync's session gets its concurrency and deadline on top; the event
        /// stream gets a session of its own. (Not a background configuration: URLSession's background sessions run
        /// download tasks handed to the system, which this library does not make.)
        public init(
            service: URL, folder: LocalCatalog, view: CatalogView = CatalogView(), credentials: Credentials? = nil,
            options: SyncOptions = SyncOptions(), logger: Logger = StickerSync.silent,
            configuration: URLSessionConfiguration, middlewares: [any ClientMiddleware] = []
        ) {
            self.init(
                service: service, folder: folder, view: view, credentials: credentials, options: options,
                logger: logger, transports: DefaultTransport.pair(options, configuration: configuration),
                middlewares: middlewares, sleep: { try await Task.sleep(for: $0) }, now: { .now })
        }
    }
#endif
