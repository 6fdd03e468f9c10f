import Hummingbird

/// Bounds how long a client may take to send a request body: a chunk that arrives after `timeout` ends the request
/// with 408 `request_timeout`, so a client trickling a byte a second cannot hold a connection or an upload slot.
/// A client that stops sending altogether is closed by the server's idle timeout instead.
package struct BodyDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    package let timeout: Duration

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard [.post, .put, .patch].contains(request.method) else { return try await next(request, context) }
        var request = request
        request.body = RequestBody(
            asyncSequence: DeadlineBody(base: request.body, deadline: .now + timeout, timeout: timeout))
        return try await next(request, context)
    }

    package init(timeout: Duration) {
        self.timeout = timeout
    }
}

/// A request body that refuses chunks arriving after its deadline.
package struct DeadlineBody: AsyncSequence, Sendable {
    package typealias Element = ByteBuffer
    package let base: RequestBody
    package let deadline: ContinuousClock.Instant
    package let timeout: Duration

    package struct AsyncIterator: AsyncIteratorProtocol {
        package var base: RequestBody.AsyncIterator
        package let deadline: ContinuousClock.Instant
        package let timeout: Duration

        package mutating func next() async throws -> ByteBuffer? {
            let chunk = try await base.next()
            if chunk != nil, ContinuousClock.now > deadline {
                throw Problem(
                    .requestTimeout, "request_timeout", "The request body took longer than \(timeout) to arrive.")
            }
            return chunk
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), deadline: deadline, timeout: timeout)
    }
}
