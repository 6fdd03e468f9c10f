// swift-tools-version:6.2
import PackageDescription

// Runs swift-openapi-generator on openapi.yaml for the client (scripts/generate-client.sh). A package of its own, so
// that neither an app nor `make run` resolves or builds the generator: its output is committed.
let package = Package(
    name: "ClientGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ]
)
