import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `change` events of `GET /v1/events`, read as they arrive (a URLSession data delegate: FoundationNetworking
/// has no byte stream on Linux). Each yields the event's id (the cursor after the change); the stream ends when the
/// connection does, throwing when it failed, and `refused` when the service would not open it.
final class EventStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let events: AsyncThrowingStream<String, any Error>
    private let continuation: AsyncThrowingStream<String, any Error>.Continuation
    private var buffer = Data()
    private var session: URLSession?

    init(request: URLRequest) {
        (events, continuation) = AsyncThrowingStream.makeStream(bufferingPolicy: .bufferingNewest(16))
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        // Heartbeats come every 15 s: a minute of silence is a dead connection.
        configuration.timeoutIntervalForRequest = 60
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        self.session = session
        session.dataTask(with: request).resume()
        continuation.onTermination = { [weak self] _ in self?.session?.invalidateAndCancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            continuation.finish(throwing: StickerClientError.refused(status: status, code: nil, detail: "GET /v1/events"))
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        buffer.append(data)
        while let end = buffer.range(of: Data("\n\n".utf8)) {
            let block = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex..<end.upperBound)
            var (name, id) = ("message", nil as String?)
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
            }
            if name == "change", let id { continuation.yield(id) }
            if name == "expired" { continuation.yield("") }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        session.finishTasksAndInvalidate()
    }
}

extension StickerSync {
    /// Syncs, then follows `/v1/events` and syncs on each change, until cancelled: reconnecting after 1, 2, 4...
    /// (at most 30) seconds when the stream drops, resuming from the local cursor. `onSync` hears every sync.
    public func follow(onSync: @escaping @Sendable (Report) -> Void, onError: @escaping @Sendable (any Error) -> Void = { _ in }) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                onSync(try await sync())
                failures = 0
                let view = options.viewQuery
                var request = URLRequest(url: http.url("/v1/events" + (view.isEmpty ? "" : "?" + view)))
                if let cursor = try catalog.load()?.cursor { request.setValue(cursor, forHTTPHeaderField: "Last-Event-ID") }
                if let token = options.userToken { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
                for try await _ in EventStream(request: request).events {
                    onSync(try await sync())
                }
            } catch {
                if Task.isCancelled { return }
                onError(error)
                failures += 1
            }
            try? await Task.sleep(for: .milliseconds(Int(ServiceHTTP.backoff(failures) * 1000)))
        }
    }
}
