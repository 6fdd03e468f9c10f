import OpenAPIRuntime

#if os(Linux)
    import AsyncHTTPClient
    import OpenAPIAsyncHTTPClient
#else
    import Foundation
    import OpenAPIURLSession
#endif

/// The transport requests go through unless an app passes its own: URLSession on Apple platforms, AsyncHTTPClient on
/// Linux (FoundationNetworking spent 5 s of CPU per 10,000 requests where curl spends 1 s).
enum DefaultTransport {
    #if os(Linux)
        /// One client for the process, as `HTTPClient.shared` is (a client must be shut down before it goes, and this
        /// one never goes), with room for a sync's downloads.
        private static let client: HTTPClient = {
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
            configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
            return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        }()
    #endif

    /// A transport for `connections` at once; with `resourceTimeout`, no request lasts longer (a sync's deadline: on
    /// Linux the sync's own checks end it at the next chunk, as AsyncHTTPClient's timeout stops at the answer's head).
    /// The event stream's transport has none: it stays open for good.
    static func make(connections: Int, resourceTimeout: Duration? = nil) -> any ClientTransport {
        #if os(Linux)
            AsyncHTTPClientTransport(configuration: .init(client: client, timeout: .seconds(60)))
        #else
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = max(connections, 1)
            configuration.urlCache = nil
            configuration.timeoutIntervalForRequest = 60
            if let resourceTimeout { configuration.timeoutIntervalForResource = resourceTimeout.seconds }
            return URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
        #endif
    }
}
