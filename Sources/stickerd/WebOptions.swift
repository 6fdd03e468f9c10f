import ArgumentParser
import CatalogApp
import CatalogHTTP

/// Which web pages on other origins may use the client API (`CrossOrigin`).
struct WebOptions: ParsableArguments {
    @Option(
        name: .customLong("cors-origin"),
        help: """
            An origin whose pages may call the client API from a browser (e.g. https://chat.example.com; repeat for \
            more): scheme, host and port exactly, no wildcard and no path. The admin API never answers another origin; \
            images answer any origin once one is given.
            """)
    var corsOrigins: [String] = []

    func validate() throws {
        for origin in corsOrigins where CrossOrigin.normalized(origin) == nil {
            throw ValidationError(
                "--cors-origin \(origin.prefix(100)) is not an origin: give scheme, host and port, as "
                    + "https://chat.example.com or http://localhost:3000, with no wildcard, path or trailing slash")
        }
    }

    func configure(_ options: inout ServiceOptions) {
        options.server.corsOrigins = corsOrigins
    }
}
