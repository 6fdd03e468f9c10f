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

    /// The sync's transport and the event stream's, for `options`.
    static func pair(_ options: SyncOptions) -> StickerSync.Transports {
        #if os(Linux)
            let transport = AsyncHTTPClientTransport(configuration: .init(client: client, timeout: .seconds(60)))
            return (transport, transport)
        #else
            return pair(options, configuration: .ephemeral)
        #endif
    }

    #if !os(Linux)
        /// Two sessions made from (a copy of) `configuration`, the app's or an ephemeral one: the sync's, with room for
        /// its downloads and its deadline as the resource timeout (no request outlives the sync; on Linux the sync's own
        /// checks end it at the next chunk, as AsyncHTTPClient's timeout stops at the answer's head), and the event
        /// stream's, which stays open for good. What the app set (Low Data Mode, `waitsForConnectivity`, a proxy) holds
        /// for both.
        static func pair(_ options: SyncOptions, configuration: URLSessionConfiguration) -> StickerSync.Transports {
            let sync = configuration.copy() as! URLSessionConfiguration
            sync.httpMaximumConnectionsPerHost = max(options.concurrency, 1)
            sync.urlCache = nil
            sync.timeoutIntervalForRequest = min(sync.timeoutIntervalForRequest, 60)
            sync.timeoutIntervalForResource = max(options.deadline, options.firstSyncDeadline).seconds
            let streams = configuration.copy() as! URLSessionConfiguration
            streams.urlCache = nil
            return (
                URLSessionTransport(configuration: .init(session: URLSession(configuration: sync))),
                URLSessionTransport(configuration: .init(session: URLSession(configuration: streams)))
            )
        }
    #endif
}
