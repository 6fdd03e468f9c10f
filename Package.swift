// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "StickerCatalog",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "stickerd", targets: ["stickerd"]),
        .executable(name: "baseline-server", targets: ["baseline-server"]),
        .executable(name: "client-bench", targets: ["client-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // The client's own runtime, named here for the live tests' middleware that counts the client's requests.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        /// The client, a package of its own (apps resolve nothing of the server); `stickerd export` and the live tests
        /// use it.
        .package(path: "Client"),
    ],
    targets: [
        /// libpng, as Debian's libpng-dev installs it.
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        /// Little CMS, as Debian's liblcms2-dev installs it: embedded ICC profiles (Display P3 from a Mac) converted to
        /// sRGB.
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        /// libwebp, libwebpmux and libwebpdemux, as Debian's libwebp-dev installs them: WebP uploads and renditions.
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        /// giflib, as Debian's libgif-dev installs it: GIF uploads' LZW data, decoded a line at a time.
        .systemLibrary(
            name: "CGIF",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]
        ),
        /// libjpeg-turbo's TurboJPEG API, as Debian's libturbojpeg0-dev installs it: JPEG uploads.
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        /// PNG writing with libpng's full API (zlib level, strategy, row filters), its setjmp inside one C function.
        .target(
            name: "CStickerPNG",
            dependencies: ["CLibPNG"],
            cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))],
            linkerSettings: [.linkedLibrary("png16")]
        ),
        /// zlib and brotli, to compress cached response bodies once.
        .systemLibrary(
            name: "CCompression",
            pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev", "zlib1g-dev"])]
        ),
        /// multipart/form-data (RFC 7578) read within a byte budget; no dependencies, so it can be fuzzed on its own.
        .target(name: "FormData"),
        /// Sticker image rules: PNG/APNG, WebP, GIF and JPEG structure, libpng, libwebp, giflib and libjpeg-turbo decode,
        /// libpng and libwebp encode, drawing the demo
        /// art. No HTTP, no SQL.
        .target(
            name: "StickerImage",
            dependencies: [
                "CLibPNG",
                "CWebP",
                "CStickerPNG",
                "CLCMS2",
                "CGIF",
                "CTurboJPEG",
            ],
            // Optimised in debug builds too: the tests decode, draw and resize real images, 50x slower unoptimised.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        /// Purchases: App Store JWS verification, RevenueCat's and the generic webhook's signatures, one event model,
        /// and the entitlement rules as plain functions. No HTTP, no SQL.
        .target(
            name: "Purchases",
            dependencies: [
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        /// Sticker packs for WhatsApp, Telegram and Signal from a catalog's groups: each platform's rules, the files
        /// and a report. No HTTP, no SQL.
        .target(
            name: "StickerPacks",
            dependencies: [
                "StickerImage",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The catalog, one target per layer; docs/architecture.md draws the graph. Only CatalogStore imports
        // PostgresNIO; only CatalogHTTP and CatalogApp import Hummingbird.
        /// Domain types and rules, the ports the store implements, signing, and the encodings that keep bytes equal
        /// across replicas.
        .target(
            name: "CatalogCore",
            dependencies: [
                "StickerImage",
                "Purchases",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        /// The search index, its ranking and suggestions, and the bytes of a search page.
        .target(name: "CatalogSearch", dependencies: ["CatalogCore", "StickerImage"]),
        /// PostgreSQL: the pool, migrations, the embedded cluster, the revision listener, the scheduler, repositories.
        .target(
            name: "CatalogStore",
            dependencies: [
                "CatalogCore",
                "StickerImage",
                "Purchases",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["EmbedFiles"]
        ),
        /// The application layer: manifests and their caches, the change feed and events, entitlements, search,
        /// purchase intake, exports, the demo catalog. It reaches the store through CatalogCore's ports.
        .target(
            name: "CatalogServices",
            dependencies: [
                "CatalogCore",
                "CatalogSearch",
                "StickerImage",
                "StickerPacks",
                "Purchases",
                "CCompression",
                .product(name: "StickerCatalogExport", package: "Client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        /// The HTTP API: controllers, middleware, problems, request contexts, the console, observability.
        .target(
            name: "CatalogHTTP",
            dependencies: [
                "CatalogCore",
                "CatalogSearch",
                "CatalogServices",
                "StickerImage",
                "StickerPacks",
                "FormData",
                "Purchases",
                .product(name: "StickerCatalogExport", package: "Client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["EmbedFiles"]
        ),
        /// `ServiceOptions` and the composition root: the store, the services and the routes, put together.
        .target(
            name: "CatalogApp",
            dependencies: [
                "CatalogCore",
                "CatalogStore",
                "CatalogServices",
                "CatalogHTTP",
                "StickerImage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "stickerd",
            dependencies: [
                "CatalogApp",
                "CatalogCore",
                "CatalogStore",
                "CatalogServices",
                "CatalogHTTP",
                "StickerImage",
                "StickerPacks",
                "Purchases",
                .product(name: "StickerCatalogExport", package: "Client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        /// `make bench`'s anchor: a bare Hummingbird app serving the same bytes from memory.
        .executableTarget(
            name: "baseline-server",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/BaselineServer"
        ),
        /// `client-bench snapshot FOLDER`: the main actor's longest stall while an app reads a synced catalog
        /// (scripts/bench/client.sh).
        .executableTarget(
            name: "client-bench",
            dependencies: [.product(name: "StickerCatalogClient", package: "Client")],
            path: "Benchmarks/ClientBench"
        ),
        /// Turns the migrations (`sql/NNNN_*.sql`) and `console/*` into Swift string literals so the binary carries its
        /// migrations and its console.
        .executableTarget(name: "EmbedFilesTool"),
        .plugin(
            name: "EmbedFiles",
            capability: .buildTool(),
            dependencies: ["EmbedFilesTool"]
        ),
        // Tests: a target per module. All but StickerCatalogTests need no database (`make check` runs them); it
        // holds what runs on a real PostgreSQL (the store, HTTP, processes, replicas, outages).
        /// Helpers the tests share: sample images, APNG and WebP writers, Pillow as an independent reader, test PKI.
        .target(
            name: "TestSupport",
            dependencies: [
                "CatalogCore",
                "StickerImage",
                "CLibPNG",
                "Purchases",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport",
            // Optimised in debug builds too, like StickerImage: its writers make the large and hostile animations the
            // image tests read, and unoptimised they were half of `make check`'s time.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .testTarget(name: "StickerImageTests", dependencies: ["StickerImage", "CLibPNG", "CLCMS2", "TestSupport"]),
        .testTarget(
            name: "PurchasesTests",
            dependencies: [
                "Purchases",
                "TestSupport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "FormDataTests", dependencies: ["FormData"]),
        .testTarget(name: "StickerPacksTests", dependencies: ["StickerPacks", "StickerImage", "TestSupport"]),
        .testTarget(name: "CatalogCoreTests", dependencies: ["CatalogCore", "StickerImage", "TestSupport"]),
        .testTarget(name: "CatalogSearchTests", dependencies: ["CatalogSearch", "CatalogCore", "StickerImage"]),
        .testTarget(
            name: "CatalogServicesTests",
            dependencies: [
                "CatalogServices", "CatalogCore", "CatalogSearch", "Purchases", "StickerPacks", "StickerImage",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The store's parts that need no database: DATABASE_URL and TLS modes, the quarantine tally.
        .testTarget(
            name: "CatalogStoreTests",
            dependencies: ["CatalogStore", "TestSupport"]
        ),
        /// The routes with no database: every port `CatalogPorts.unimplemented` (TestSupport) but those a test sets.
        .testTarget(
            name: "CatalogHTTPTests",
            dependencies: [
                "CatalogApp", "CatalogHTTP", "CatalogServices", "CatalogCore", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        /// The client package against a live stickerd (the built binary, run as a process) over real HTTP.
        .testTarget(
            name: "StickerCatalogLiveClientTests",
            dependencies: [
                "TestSupport",
                .product(name: "StickerCatalogClient", package: "Client"),
                .product(name: "StickerCatalogExport", package: "Client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .testTarget(
            name: "StickerCatalogTests",
            dependencies: [
                "CatalogCore",
                "CatalogSearch",
                "CatalogStore",
                "CatalogServices",
                "CatalogHTTP",
                "CatalogApp",
                "TestSupport",
                .product(name: "StickerCatalogClient", package: "Client"),
                .product(name: "StickerCatalogAPI", package: "Client"),
                "StickerImage",
                "CCompression",
                "Purchases",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ]
)

// A warning in this package's own code fails its build: the compiler holds the rule that it builds clean. Only here,
// never in the client package, whose users build it as a dependency (where SwiftPM and Xcode suppress warnings, and
// `-warnings-as-errors` conflicts with that). Dependencies' warnings are theirs.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}
