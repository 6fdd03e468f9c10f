import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What every request to the service goes through, outermost first: tries again after a 503, a 429 or a failed
/// connection (`Retry-After`, else `Backoff`); signs in; reads a refusal's problem (bounded) into
/// `StickerClientError.refused`; and bounds every answer's body.
struct ServiceMiddleware: ClientMiddleware {
    let credentials: Credentials?
    let attempts: Int
    let backoff: Backoff
    let sleep: @Sendable (Duration) async throws -> Void
    let userAgent: String
    /// The platform, app version and installation id stated on requests that read the catalog.
    var facts: ClientFacts?
    /// The largest JSON answer read (a manifest at 10,000 stickers is 7 MB).
    static let jsonLimit = 64 << 20
    /// Operations whose requests carry no `Authorization` (an image URL may be a CDN's, a premium one signed).
    static let anonymous: Set<String> = ["getAsset", "postAssetBundle"]
    /// One try per request: `follow()` waits between its own tries, so retries here would multiply them.
    @TaskLocal static var singleAttempt = false

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.userAgent] = userAgent
        // The generated client percent-encodes header values (swift-openapi-generator#857): an ETag went out as
        // %22...%22, which matches nothing, so every revalidation was a full answer. ETags are quoted ASCII.
        if let tag = request.headerFields[.ifNoneMatch], tag.contains("%") {
            request.headerFields[.ifNoneMatch] = tag.removingPercentEncoding ?? tag
        }
        facts?.stamp(&request, operationID: operationID)
        var failures = 0
        var refreshed = false
        var refreshNow = false
        var seen = 0
        let attempts = Self.singleAttempt ? 1 : self.attempts
        // A body that can be sent once is sent once: no retry.
        let retryable = body.map { $0.iterationBehavior == .multiple } ?? true
        let signed = credentials != nil && !Self.anonymous.contains(operationID)
        while true {
            let wait: Duration
            do {
                // A cancelled sync asks nothing more: its caller may have been told already (`StickerSync.leave`).
                try Task.checkCancellation()
                try SyncDeadline.check()
                if signed, let credentials {
                    // Asked before every try; with `refresh` only once, after the first 401. Nil signs out.
                    let (token, generation) = try await credentials.token(refresh: refreshNow, seen: seen)
                    (refreshNow, seen) = (false, generation)
                    request.headerFields[.authorization] = token.map { "Bearer \($0)" }
                }
                let (response, answer) = try await next(request, body, baseURL)
                if response.status.code < 400 {
                    let events = operationID == "getEvents"
                    return (
                        response,
                        answer?.bounded(
                            to: events ? .max : Self.jsonLimit, lineLimit: events ? 64 << 10 : nil,
                            eventLimit: events ? 1 << 20 : .max)
                    )
                }
                let refusal = await Self.refusal(response, answer)
                failures += 1
                if response.status.code == 401, signed, !refreshed, retryable {
                    (refreshed, refreshNow) = (true, true)
                    continue
                }
                guard [429, 503].contains(response.status.code) else { throw refusal }
                let asked = backoff.retryAfter(response.headerFields[.retryAfter])
                guard failures < attempts, retryable, (asked ?? .zero) <= backoff.longestWaitInRequest else {
                    guard case .refused(let status, let code, _) = refusal else { throw refusal }
                    throw StickerClientError.unavailable(status: status, code: code, retryAfter: asked)
                }
                wait = asked ?? backoff.delay(after: failures)
            } catch let error as StickerClientError {
                throw error
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                failures += 1
                guard failures < attempts, retryable else {
                    throw StickerClientError.unreachable(
                        "\(Redaction.url(request.path ?? "")): \(Redaction.describe(error))", reason: .of(error))
                }
                wait = backoff.delay(after: failures)
            }
            try SyncDeadline.check(waiting: wait)
            try await sleep(wait)
        }
    }

    /// A refusal as an error: its problem's `code` and `detail` when the body is one (read at most 64 KiB).
    static func refusal(_ response: HTTPResponse, _ body: HTTPBody?) async -> StickerClientError {
        struct Problem: Decodable {
            var code: String?
            var detail: String?
        }
        var data: Data?
        if let body { data = try? await Data(collecting: body.bounded(to: 64 << 10), upTo: 64 << 10) }
        let problem = data.flatMap { try? JSONDecoder().decode(Problem.self, from: $0) }
        return .refused(status: response.status.code, code: problem?.code, detail: problem?.detail)
    }
}
