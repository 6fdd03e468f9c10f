import CatalogCore
import HTTPTypes
import Hummingbird

/// `Idempotency-Key` on admin writes, as Stripe's API takes it: a retry with the same key and the same request (what
/// `RequestFingerprint` hashes) gets the first answer again, marked `Idempotent-Replayed: true`, instead of doing the
/// write twice (a sticker uploaded twice after a lost acknowledgement). The same key with another request is a 422.
/// Keys belong to the admin token that sent them. The answer is kept by the write's own transaction (handlers pass
/// `context.keeping(...)` to the store), so a committed write always has it; a refused or failed write keeps nothing.
/// A retry that runs while the first request is still writing waits for it, then gets its answer.
package struct IdempotencyMiddleware: RouterMiddleware {
    package typealias Context = AdminRequestContext
    package let repository: any IdempotencyRepository
    /// The largest body buffered to fingerprint it: the largest upload.
    package let maxBodyBytes: Int

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method != .get, request.method != .head, let key = request.headers[.idempotencyKey] else {
            return try await next(request, context)
        }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem(
                .badRequest, "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 visible ASCII characters.")
        }
        var request = request
        let body = try await request.body.collect(upTo: maxBodyBytes)
        request.body = RequestBody(buffer: body)
        let idempotency = IdempotencyKey(
            token: context.adminIdentity, key: key, fingerprint: RequestFingerprint.of(request, body: body))
        if let kept = try await repository.keptAnswer(for: idempotency) { return try Self.answer(kept) }
        var context = context
        context.idempotency = idempotency
        do {
            return try await next(request, context)
        } catch let taken as IdempotencyKeyTaken {
            // A request with this key committed while this one ran (a concurrent retry): its answer is this one's.
            guard let kept = try await repository.keptAnswer(for: idempotency) else { throw taken }
            return try Self.answer(kept)
        }
    }

    /// The kept answer, or the 422 for a key kept for another request.
    package static func answer(_ kept: KeptAnswer) throws -> Response {
        switch kept {
        case .answered(let stored): return stored.response
        case .reusedForAnotherRequest:
            throw Problem(
                .unprocessableContent, "idempotency_key_reused", "This Idempotency-Key was used with another request.")
        }
    }

    package init(repository: any IdempotencyRepository, maxBodyBytes: Int) {
        self.repository = repository
        self.maxBodyBytes = maxBodyBytes
    }
}

extension AdminRequestContext {
    /// How a write keeps its answer for the request's `Idempotency-Key`, in the write's own transaction; nil without a
    /// key. `respond` makes the answer from the write's result, the very function the handler answers with, so that
    /// a retry gets the same bytes; a result it refuses (throws for, or answers with no 2xx) keeps nothing.
    package func keeping<Value: Sendable>(
        _ request: Request,
        _ respond: @escaping @Sendable (Value) throws -> some ResponseGenerator
    ) -> IdempotentWrite<Value>? {
        guard let idempotency else { return nil }
        let context = self
        return IdempotentWrite(key: idempotency) { value in
            guard let response = try? respond(value).response(from: request, context: context),
                (200..<300).contains(response.status.code)
            else { return nil }
            return try await StoredResponse(response)
        }
    }
}

extension StoredResponse {
    /// `response` with its body read.
    package init(_ response: Response) async throws {
        let sink = BodySink()
        try await response.body.write(sink)
        self.init(
            status: response.status.code, contentType: response.headers[.contentType],
            location: response.headers[.location],
            body: sink.bytes)
    }

    /// The response as first sent, marked as a replay.
    package var response: Response {
        var headers: HTTPFields = [.idempotentReplayed: "true"]
        if let contentType { headers[.contentType] = contentType }
        if let location { headers[.location] = location }
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Collects a response body's bytes.
private final class BodySink: ResponseBodyWriter, @unchecked Sendable {
    package var bytes: [UInt8] = []

    package func write(_ buffer: ByteBuffer) async throws {
        bytes += buffer.readableBytesView
    }

    package func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension HTTPField.Name {
    package static let idempotencyKey = Self("Idempotency-Key")!
    package static let idempotentReplayed = Self("Idempotent-Replayed")!
}
