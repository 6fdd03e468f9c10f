import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// A signed image URL (`?exp=&sig=`) never outlives its request: not in a report's failed files, an error's texts, the
/// status or a log line, whatever type of error carried it. `URLError` is the one that matters on Apple platforms: its
/// user info holds the failing URL and its description prints it.
@Suite struct RedactionTests {
    static let secret = "SECRETSIGNATURE"
    static let signed = "https://cdn.test/v1/assets/x.png?exp=1700000000&sig=\(secret)"

    /// The error URLSession throws for a request to `signed` (`NSErrorFailingURLStringKey` is the value of
    /// `NSURLErrorFailingURLStringErrorKey`, which Linux marks deprecated).
    static var urlError: URLError {
        URLError(
            .timedOut,
            userInfo: [
                "NSErrorFailingURLStringKey": signed, NSURLErrorFailingURLErrorKey: URL(string: signed)!,
                NSLocalizedDescriptionKey: "The request timed out.",
            ])
    }

    /// Every way an app or a log could show `error`.
    static func texts(_ error: any Error) -> [String] {
        var texts = [String(describing: error), String(reflecting: error), error.localizedDescription]
        if let error = error as? StickerClientError {
            texts += [error.errorDescription, error.failureReason, error.recoverySuggestion].compactMap { $0 }
        }
        return texts
    }

    @Test("The real URLError names the signature: the subject of the tests below carries what they look for")
    func urlErrorCarriesTheSignature() {
        #expect(String(describing: Self.urlError).contains(Self.secret))
    }

    @Test("A file whose fetch threw a URLError naming its signed URL: the report, logs and texts name no signature")
    func fileFailure() async throws {
        // Setup: a manifest whose pictures are signed URLs on a CDN, whose every fetch throws URLSession's error.
        let service = MemoryService()
        var group = (service.manifest["groups"] as! [[String: Any]])[0]
        var stickers = group["stickers"] as! [[String: Any]]
        for index in stickers.indices {
            for key in ["asset", "thumbnail"] {
                var link = stickers[index][key] as! [String: Any]
                link["url"] = "https://cdn.test/v1/assets/\(link["sha256"]!).png?exp=1700000000&sig=\(Self.secret)"
                stickers[index][key] = link
            }
        }
        group["stickers"] = stickers
        service.manifest["groups"] = [group]
        let transport = Intercepting(base: service) { request in
            request.authority == "cdn.test" ? Self.urlError : nil
        }
        let logs = LogLines()
        let sync = StickerSync(
            service: URL(string: "http://stickers.test")!,
            folder: LocalCatalog(directory: StickerSync.temporaryFolder()),
            options: {
                var options = SyncOptions()
                options.attempts = 1
                return options
            }(),
            logger: Logger(label: "test") { _ in logs }, transport: transport, sleep: { _ in })
        // Action
        let report = try await sync.sync()
        // Check: every file failed, and nothing said of it names the signature.
        #expect(report.failedFiles.count == 3)
        let said = report.failedFiles.values.flatMap(Self.texts) + logs.all + [String(describing: report)]
        #expect(!said.isEmpty && said.allSatisfy { !$0.contains(Self.secret) && !$0.contains("sig=") }, "\(said)")
        #expect(logs.all.contains { $0.contains("cdn.test/v1/assets/") }, "the logs still say which file: \(logs.all)")
    }

    @Test("A sync that ends on a URLError naming a signed URL: the error thrown and the status name no signature")
    func syncFailure() async throws {
        // Setup: the manifest's request fails so.
        let transport = Intercepting(base: MemoryService()) { _ in Self.urlError }
        let sync = StickerSync.testing(transport) { $0.attempts = 1 }
        // Action
        let thrown = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check
        guard let thrown, case .offline(let shown, _) = sync.status else {
            Issue.record("no error, or status \(sync.status)")
            return
        }
        let said = Self.texts(thrown) + Self.texts(shown)
        #expect(said.allSatisfy { !$0.contains(Self.secret) && !$0.contains("sig=") }, "\(said)")
    }

    @Test("A credentials provider's error naming a signed URL is kept, described without it")
    func credentialsFailure() async throws {
        let underlying = UnderlyingError(Self.urlError)
        #expect(underlying.error is URLError)
        #expect(!underlying.description.contains(Self.secret) && underlying.description.contains("cdn.test"))
    }

    @Test("Redaction cuts each URL's query and fragment, and leaves other words alone")
    func text() {
        let cases = [
            ("GET /v1/assets/a.png?exp=1&sig=x failed", "GET /v1/assets/a.png failed"),
            ("{Key=https://h/a.png?sig=x, Other=https://h/b#frag}", "{Key=https://h/a.png, Other=https://h/b}"),
            ("\"https://h/p?q\" and why? and a/b c?d", "\"https://h/p\" and why? and a/b c?d"),
        ]
        for (given, expected) in cases { #expect(Redaction.text(given) == expected) }
    }
}

/// A transport that throws what `fail` returns for a request, and hands the rest to `base`.
struct Intercepting: ClientTransport {
    let base: any ClientTransport
    let fail: @Sendable (HTTPRequest) -> (any Error)?

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if let error = fail(request) { throw error }
        return try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// Every line logged, with its metadata, as one text each.
final class LogLines: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var all: [String] { lock.withLock { lines } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { lines.append("\(event.message) \(event.metadata ?? [:])") }
    }
}
