// swift-tools-version:6.2
import PackageDescription

// The client side of StickerCatalog, for apps: nothing of the server. Its requests and wire types are generated from
// openapi.yaml (scripts/generate-client.sh) into StickerCatalogAPI.
let package = Package(
    name: "StickerCatalogClient",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        /// The requests and wire types of the client and user routes, as swift-openapi-generator makes them.
        .library(name: "StickerCatalogAPI", targets: ["StickerCatalogAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [
        .target(
            name: "StickerCatalogAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")]
        ),
    ]
)
