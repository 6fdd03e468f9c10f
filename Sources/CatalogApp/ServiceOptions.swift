import CatalogCore
import CatalogHTTP
import CatalogServices
import StickerImage

/// What `stickerd serve` is configured with, in groups: where it listens, what it caches, what it bounds, who may do
/// what, purchases, event streams, logging, and the database's background work. Every value has a working default.
package struct ServiceOptions: Sendable {
    /// Load the candy demo catalog when the catalog is empty.
    package var demo = false
    package var server = Server()
    package var caches = Caches()
    package var limits = Limits()
    package var access = Access()
    /// How each purchase source is verified, and whether sandbox purchases unlock.
    package var purchases = PurchaseConfiguration()
    package var streams = Streams()
    package var logging = Logs()
    package var database = Database()
    package var usage = Usage()

    package init() {}

    /// The shortest bootstrap token accepted: 16 characters, about 96 bits when random.
    package static let minimumTokenLength = 16

    /// Where the service listens and how it treats connections.
    package struct Server: Sendable {
        package var host = "127.0.0.1"
        package var port = 8080
        /// Absolute base for asset URLs (a CDN, say); nil serves them as paths on this service.
        package var publicBaseURL: String?
        /// A connection with no request under way for this long is closed (so is one still sending its request head).
        package var idleTimeout = Duration.seconds(30)
        /// The longest a request body may take to arrive.
        package var bodyTimeout = Duration.seconds(30)
        /// An answer that makes no progress for this long (its client stopped reading) has its connection closed
        /// (`WriteStallHandler`).
        package var writeStallTimeout = Duration.seconds(30)
        /// Each connection's kernel send buffer, capped: what a client that stops reading can hold of the kernel.
        package var sendBufferBytes = 256 << 10
        /// Connections held at once; past it, new ones wait in the listen backlog (`ConnectionLimit`). `stickerd
        /// serve` derives it from its file limit (`DescriptorBudget.connections`); nil holds any number.
        package var maxConnections: Int?
        /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`); nobody else's is believed.
        package var trustedProxies = TrustedProxies()
        /// The header a CDN or load balancer sets to the client's country (`--country-header`), for audiences; nil
        /// when none does, and a country-restricted group is then shown to no one.
        package var countryHeader: String?
        /// Origins whose pages may call the client API (`--cors-origin`, `CrossOrigin`); none by default.
        package var corsOrigins: [String] = []
    }

    /// Memory for what is kept between requests, each an LRU bounded in bytes.
    package struct Caches: Sendable {
        /// Encoded manifests.
        package var manifestBytes = 64 << 20
        /// Encoded search answers; 0 answers every search afresh.
        package var searchBytes = 8 << 20
        /// Image bytes.
        package var assetBytes = 64 << 20
        /// The products each signed-in user holds.
        package var entitlementBytes = 16 << 20
        /// Encoded trending pages.
        package var trendingBytes = 4 << 20
    }

    /// Usage counting (`POST /v1/usage`) and the trending scores read from it.
    package struct Usage: Sendable {
        /// How often this replica writes the counts it summed; a crash loses at most this much.
        package var flushInterval = Duration.seconds(5)
        /// Events one client address (an IPv4 address, an IPv6 /64) may send a minute, signed-in users apart: it keeps
        /// one address from filling the tally, and is generous, as carrier-grade NAT puts many users behind one.
        package var perAddressPerMinute = 1200
        /// Events one signed-in user may add a minute.
        package var perUserPerMinute = 600
        /// Uses of one sticker by one action that one source (an anonymous client's address, a signed-in user) adds
        /// to the counts in an hour, across every replica, however many it sends.
        package var perSourceHour = 3
        /// How often trending scores are read again.
        package var scoresInterval = Duration.seconds(30)

        package init() {}
    }

    /// Bounds on what clients and webhooks may make the service do.
    package struct Limits: Sendable {
        /// What an uploaded image may be.
        package var rules = StickerRules()
        /// Uploads read, validated and stored at once; more are refused with 503.
        package var concurrentUploads = 8
        /// Asset bundles answered at once (each up to 16 MiB until read); more are refused with 503.
        package var bundlesInFlight = 32
        /// Asset bundles answered at once to one client address (a client asks for four; a carrier's NAT puts many
        /// clients behind one address); more are refused with 429.
        package var bundlesPerAddress = 16
        /// Wrong admin tokens one source may present in a minute before it is refused with 429 until the minute ends.
        package var adminAuthFailuresPerMinute = 10
        /// Refused webhook deliveries kept for replay, per source and refusal; the oldest go first.
        package var quarantinedDeliveries = 10_000
        /// Bytes of bodies and signatures kept in each of those quarantines; the oldest go first.
        package var quarantinedBytes = 64 << 20
    }

    /// Tokens and signing keys.
    package struct Access: Sendable {
        /// An admin token accepted as is (`STICKER_ADMIN_TOKEN`), to bootstrap a fresh installation.
        package var bootstrapAdminToken: String?
        /// Verifies users' bearer tokens; nil refuses every one.
        package var userTokens: UserTokens?
        /// Signs premium image URLs (`STICKER_ASSET_SIGNING_KEY`); a random key when nil, good for this process only.
        package var assetSigningKey: [UInt8]?
        /// Signed image URLs live between one and two of these, in seconds.
        package var assetURLLifetime: Int64 = 3600
        /// `/metrics` answers only with `Authorization: Bearer` this token (`--metrics-token`); nil serves it on a
        /// loopback listener only (`metricsOpen`).
        package var metricsToken: String?
    }

    /// Whether `/metrics` answers without a token: only on a listener no other machine reaches. Its counters and
    /// durations move when an admin works on a draft, while nothing public changes: open to the network, they would
    /// time hidden work.
    package var metricsOpen: Bool { access.metricsToken == nil && Self.isLoopback(server.host) }

    /// Whether `host` is one only this machine reaches: 127.0.0.0/8, `::1` or `localhost`.
    package static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host == "[::1]"
            || (host.hasPrefix("127.") && host.split(separator: ".").count == 4)
    }

    /// Server-Sent Event streams (`/v1/events`).
    package struct Streams: Sendable {
        /// Streams open at once on this replica; more are refused with 503 and `Retry-After`.
        package var total = 10_000
        /// Streams one signed-in user, and one client address (IPv4, or an IPv6 /64: generous, as carrier-grade NAT
        /// puts many users behind one), may hold on this replica; more are refused with 429.
        package var perUser = 8
        package var perAddress = 256
        /// How often an idle stream sends a comment line, so proxies and clients know it is alive.
        package var heartbeat = Duration.seconds(15)
        /// A stream ends after this; its client reconnects (to any replica) with `Last-Event-ID`.
        package var lifetime = Duration.seconds(3600)

        /// The bounds these set on this replica's streams.
        package var limits: StreamAdmission.Limits { .init(total: total, perUser: perUser, perAddress: perAddress) }
    }

    /// What is written about each request.
    package struct Logs: Sendable {
        /// Time every request into `http_request_duration_seconds`; false only counts them (to price the histogram).
        package var requestDurations = true
        /// The line per request (stickerd writes it at info, its default level); nil writes none.
        package var accessLog: AccessLog?
    }

    /// Waiting for the database, and the work done against it in the background.
    package struct Database: Sendable {
        /// How long a starting replica waits for PostgreSQL before it gives up.
        package var startupPatience = Duration.seconds(30)
        /// How often deliveries left unapplied are swept and applied again (`DeliverySweeper`).
        package var deliverySweepInterval = Duration.seconds(30)
        /// The time schedules are judged by (a test's own clock in tests).
        package var scheduleClock: any ScheduleClock = SystemScheduleClock()
    }
}
