import ArgumentParser
import CatalogApp

/// `serve`'s usage counting (`POST /v1/usage`): how often counts are written, and what one source may add.
struct UsageOptions: ParsableArguments {
    @Option(
        help:
            "Seconds between writes of the usage counts this replica summed in memory (one upsert each); a crash loses at most this much, SIGTERM writes first."
    )
    var usageFlushInterval = 5.0

    @Option(help: "Usage events one client address (IPv4, or an IPv6 /64) may add a minute; the rest are dropped.")
    var usagePerAddress = ServiceOptions.Usage().perAddressPerMinute

    @Option(help: "Usage events one signed-in user may add a minute; the rest are dropped.")
    var usagePerUser = ServiceOptions.Usage().perUserPerMinute

    func validate() throws {
        guard (0.01...3600).contains(usageFlushInterval), usagePerAddress >= 1, usagePerUser >= 1 else {
            throw ValidationError(
                "--usage-flush-interval must be 0.01 to 3600 seconds, --usage-per-address and --usage-per-user at least 1"
            )
        }
    }

    func configure(_ options: inout ServiceOptions) {
        options.usage.flushInterval = .milliseconds(Int64((usageFlushInterval * 1000).rounded()))
        (options.usage.perAddressPerMinute, options.usage.perUserPerMinute) = (usagePerAddress, usagePerUser)
    }
}
