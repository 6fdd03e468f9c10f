import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What went wrong talking to the service or keeping its files.
public enum StickerClientError: Error, Sendable, Equatable {
    /// The service refused: its status and the problem's stable `code` (nil when it sent none).
    case refused(status: Int, code: String?, detail: String?)
    /// A downloaded file did not match the digest or byte count the manifest gives, on every try.
    case corrupt(sha256: String)
    /// The service could not be reached, or kept answering 503, on every try.
    case unreachable(String)
    /// Nothing has been synced into the directory yet.
    case notSynced
}

/// One HTTP exchange with the service, retried as it asks: 503 and 429 after their `Retry-After` (at most 30 s each),
/// connection failures after 0.5, 1, 2... s, up to `attempts` tries.
struct ServiceHTTP: Sendable {
    struct Answer: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The problem's `code` and `detail`, as an error.
        var refusal: StickerClientError {
            let problem = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            return .refused(status: status, code: problem?["code"] as? String, detail: problem?["detail"] as? String)
        }
    }

    let base: URL
    let token: String?
    let attempts: Int
    let session: URLSession

    init(base: URL, token: String?, attempts: Int, concurrency: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(concurrency, 1)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // The service sets no cookies; parsing for them cost 8% of a sync's time on Linux.
        (configuration.httpCookieStorage, configuration.httpShouldSetCookies, configuration.httpCookieAcceptPolicy) = (nil, false, .never)
        configuration.timeoutIntervalForRequest = 30
        (self.base, self.token, self.attempts) = (base, token, max(attempts, 1))
        session = URLSession(configuration: configuration)
    }

    /// `path` (with its query) or an absolute URL, resolved against the service.
    func url(_ path: String) -> URL {
        URL(string: path, relativeTo: base)?.absoluteURL ?? base
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> Answer {
        try await send(URLRequest(url: url(path)), headers: headers)
    }

    /// An image: no `Authorization` (its URL may be a CDN's; a premium one carries its own signature).
    func file(_ url: URL) async throws -> Answer {
        try await send(URLRequest(url: url), headers: [:], authorize: false)
    }

    func post(_ path: String, json: Data) async throws -> Answer {
        var request = URLRequest(url: url(path))
        (request.httpMethod, request.httpBody) = ("POST", json)
        return try await send(request, headers: ["Content-Type": "application/json"])
    }

    private func send(_ request: URLRequest, headers: [String: String], authorize: Bool = true) async throws -> Answer {
        var request = request
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if authorize, let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        var last = "no attempt"
        for attempt in 0..<attempts {
            do {
                let (data, response) = try await session.exchange(request)
                let http = response as? HTTPURLResponse
                let answer = Answer(status: http?.statusCode ?? 0,
                                    headers: (http?.allHeaderFields as? [String: String]) ?? [:], body: data)
                guard answer.status == 503 || answer.status == 429 else { return answer }
                last = "HTTP \(answer.status)"
                let wait = answer.header("Retry-After").flatMap(Double.init) ?? Self.backoff(attempt)
                if attempt + 1 < attempts { try await Task.sleep(for: .milliseconds(Int(min(wait, 30) * 1000))) }
            } catch let error as URLError {
                last = "\(error.code.rawValue): \(error.localizedDescription)"
                if attempt + 1 < attempts { try await Task.sleep(for: .milliseconds(Int(Self.backoff(attempt) * 1000))) }
            }
        }
        throw StickerClientError.unreachable("\(request.url?.path ?? ""): \(last)")
    }

    /// Seconds before try `attempt + 1`: 0.5, 1, 2, 4... up to 30.
    static func backoff(_ attempt: Int) -> Double {
        min(0.5 * Double(1 << min(attempt, 6)), 30)
    }
}

extension URLSession {
    /// One request, through the completion-handler API: on Linux, cancelling `data(for:)` while it completes deadlocks
    /// FoundationNetworking (a download group failing cancels its siblings), so cancellation never reaches URLSession
    /// here; a request in flight ends by itself, within the session's timeout. Under heavy load FoundationNetworking
    /// was also seen never to call a completion (its timeout did not fire either, for over ten minutes), so past `limit`
    /// the exchange gives up as timed out, leaving that task to URLSession, and the caller's retries go on.
    public func exchange(_ request: URLRequest, limit: Duration = .seconds(120)) async throws -> (Data, URLResponse) {
        let outcome = Outcome()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.wait(continuation)
            dataTask(with: request) { data, response, error in
                if let data, let response { outcome.finish(.success((data, response))) } else {
                    outcome.finish(.failure(error ?? URLError(.badServerResponse)))
                }
            }.resume()
            outcome.watch(Task {
                try await Task.sleep(for: limit)
                outcome.finish(.failure(URLError(.timedOut)))
            })
        }
    }
}

/// The first of a completion and a watchdog resumes the exchange; the watchdog is stopped when the completion wins.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    private var watchdog: Task<Void, any Error>?
    private var finished = false

    func wait(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    func watch(_ task: Task<Void, any Error>) {
        let late = lock.withLock { () -> Bool in
            watchdog = task
            return finished
        }
        if late { task.cancel() }
    }

    func finish(_ result: Result<(Data, URLResponse), any Error>) {
        let (continuation, watchdog) = lock.withLock { () -> (CheckedContinuation<(Data, URLResponse), any Error>?, Task<Void, any Error>?) in
            guard !finished else { return (nil, nil) }
            finished = true
            defer { self.continuation = nil }
            return (self.continuation, self.watchdog)
        }
        watchdog?.cancel()
        continuation?.resume(with: result)
    }
}
