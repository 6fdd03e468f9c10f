import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Logging

/// How `serve` shares its event streams between clients, and the file descriptors they need.
struct StreamOptions: ParsableArguments {
    @Option(
        help:
            "Event streams one signed-in user may hold open on a replica; more are refused with 429 too_many_user_streams."
    )
    var maxEventStreamsPerUser = 8

    @Option(
        help: """
            Event streams one client address (an IPv4 address, or an IPv6 /64) may hold open on a replica; more are refused \
            with 429 too_many_address_streams. Carrier-grade NAT puts many users behind one address: leave room for them.
            """)
    var maxEventStreamsPerAddress = 256

    @Option(
        name: .customLong("trusted-proxy"),
        help: """
            A proxy or load balancer (an address or CIDR block, e.g. 10.0.0.0/8; repeat for more) whose X-Forwarded-For names \
            the client. Behind a proxy, name it, or every client counts as the proxy's address; nobody else's \
            X-Forwarded-For is believed.
            """)
    var trustedProxies: [String] = []

    @Option(
        help: """
            The header your CDN or load balancer sets to the client's ISO 3166-1 country code (e.g. \
            CloudFront-Viewer-Country, CF-IPCountry), for groups shown in some countries only. Without it the country \
            is unknown and such groups are shown to no one. Name only a header your edge sets and strips from clients.
            """)
    var countryHeader: String?

    func validate() throws {
        if let countryHeader, !ClientFactsMiddleware.isHeaderName(countryHeader) {
            throw ValidationError("--country-header \(countryHeader) is not a header name")
        }
        guard maxEventStreamsPerUser >= 1, maxEventStreamsPerAddress >= 1 else {
            throw ValidationError("--max-event-streams-per-user and --max-event-streams-per-address must be at least 1")
        }
        _ = try proxies()
    }

    func configure(_ options: inout ServiceOptions) throws {
        (options.streams.perUser, options.streams.perAddress) = (maxEventStreamsPerUser, maxEventStreamsPerAddress)
        options.server.trustedProxies = try proxies()
        options.server.countryHeader = countryHeader
    }

    private func proxies() throws -> TrustedProxies {
        TrustedProxies(
            try trustedProxies.map { text in
                guard let range = AddressRange(text) else {
                    throw ValidationError(
                        "--trusted-proxy \(text) is not an address or CIDR block (e.g. 10.0.0.0/8, fd00::/8)")
                }
                return range
            })
    }

    /// Raises the soft file limit to the hard one, then refuses to start when `budget` does not fit it: better now,
    /// with the reason, than later, when streams fill the descriptor table and health checks time out. The
    /// connections the process may then hold at once.
    static func reserveDescriptors(_ budget: DescriptorBudget, logger: Logger) throws -> Int {
        let (before, after) = FileLimit.raiseSoftLimit()
        if after > before {
            logger.info("Raised the soft file descriptor limit (RLIMIT_NOFILE) from \(before) to \(after)")
        }
        if let shortfall = budget.shortfall(limit: after) { throw TooFewDescriptors(description: shortfall) }
        let connections = budget.connections(limit: after)
        logger.info(
            "File descriptors: \(after) allowed, at most \(budget.needed) needed; at most \(connections) connections at once"
        )
        return connections
    }
}

/// The stream bound does not fit the file limit: not a usage error, so no usage is printed after it.
struct TooFewDescriptors: Error, CustomStringConvertible {
    let description: String
}
