import ArgumentParser
import CatalogApp

/// `serve`'s usage counting (`POST /v1/usage`): how often counts are written, and what one source may add.
struct UsageOptions: ParsableArguments {
    @Option(
        help:
            "Seconds between writes of the usage counts this replica summed in memory (one upsert each); a crash loses at most this much, SIGTERM writes first."
    )
    var usageFlushInterval = 5.0

    @Option(
        help:
            "Usage events one anonymous client address (IPv4, or an IPv6 /64) may send a minute to this replica; the rest are dropped."
    )
    var usagePerAddress = ServiceOptions.Usage().perAddressPerMinute

    @Option(help: "Usage events one signed-in user may send a minute to this replica; the rest are dropped.")
    var usagePerUser = ServiceOptions.Usage().perUserPerMinute

    @Option(
        help:
            "Uses of one sticker by one action that one source (an anonymous address, a signed-in user) adds to the counts in an hour, across all replicas."
    )
    var usagePerSourceHour = ServiceOptions.Usage().perSourceHour

    func validate() throws {
        // Bounded above as well: a count near Int.max would overflow the allowance's arithmetic.
        let allowances = 1...1_000_000
        guard (0.01...3600).contains(usageFlushInterval), allowances.contains(usagePerAddress),
            allowances.contains(usagePerUser), allowances.contains(usagePerSourceHour)
        else {
            throw ValidationError(
                "--usage-flush-interval must be 0.01 to 3600 seconds; --usage-per-address, --usage-per-user and --usage-per-source-hour 1 to 1000000"
            )
        }
    }

    func configure(_ options: inout ServiceOptions) {
        options.usage.flushInterval = .milliseconds(Int64((usageFlushInterval * 1000).rounded()))
        (options.usage.perAddressPerMinute, options.usage.perUserPerMinute) = (usagePerAddress, usagePerUser)
        options.usage.perSourceHour = usagePerSourceHour
    }
}
