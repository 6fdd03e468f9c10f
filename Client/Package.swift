// swift-tools-version:6.2
import PackageDescription

// The client side of StickerCatalog, for apps: nothing of the server. Its requests and wire types are generated from
// openapi.yaml (scripts/generate-client.sh) into StickerCatalogAPI; requests go through swift-openapi-runtime's
// ClientTransport: URLSession on Apple platforms, AsyncHTTPClient on Linux (an iOS app links no AsyncHTTPClient).
let package = Package(
    name: "StickerCatalogClient",
    defaultLocalization: "en",
    // tvOS, watchOS and visionOS at iOS 16's API level (the code uses nothing iOS-only); this repository's CI is Linux
    // and builds none of the Apple platforms (GettingStarted.md says so).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        /// What a sticker app links: sync a catalog into a folder, live updates, purchases.
        .library(name: "StickerCatalogClient", targets: ["StickerCatalogClient"]),
        /// The requests and wire types of the client and user routes, as swift-openapi-generator makes them.
        .library(name: "StickerCatalogAPI", targets: ["StickerCatalogAPI"]),
        /// Writes `Stickers.xcstickers`; no generated code, so `stickerd export` builds without it.
        .library(name: "StickerCatalogExport", targets: ["StickerCatalogExport"]),
        .executable(name: "sticker-sync", targets: ["sticker-sync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "StickerCatalogAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")]
        ),
        .target(name: "StickerCatalogExport"),
        .target(
            name: "StickerCatalogClient",
            dependencies: [
                "StickerCatalogAPI",
                "StickerCatalogExport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                // Only to tell a transport's errors apart (offline, timed out, TLS).
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
            ],
            resources: [.process("Resources")]
        ),
        /// `sticker-sync URL FOLDER [--watch]`: the client package from a terminal.
        .executableTarget(
            name: "sticker-sync",
            dependencies: [
                "StickerCatalogClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
            ]
        ),
        /// The client alone: an in-memory transport, no stickerd (the live tests are the server package's).
        .testTarget(
            name: "StickerCatalogClientTests",
            dependencies: [
                "StickerCatalogClient",
                "StickerCatalogExport",
                "sticker-sync",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
            ]
        ),
    ]
)
