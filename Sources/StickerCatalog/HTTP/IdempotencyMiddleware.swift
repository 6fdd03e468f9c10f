import Crypto
import HTTPTypes
import Hummingbird

/// `Idempotency-Key` on admin writes, as Stripe's API takes it: a retry with the same key and the same request (method,
/// path, query and body) gets the first answer again, marked `Idempotent-Replayed: true`, instead of doing the write
/// twice (a sticker uploaded twice after a lost acknowledgement). The same key with another request is a 422, and
/// while the first is still running a retry is a 409. Only successful answers are kept: after a failure the key is
/// free again. Requests without the header pass straight through.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AdminRequestContext
    let repository: any IdempotencyRepository
    /// The largest body buffered to fingerprint it: the largest upload.
    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let key = request.headers[.idempotencyKey] else {
            return try await next(request, context)
        }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem(.badRequest, "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 visible ASCII characters.")
        }
        var request = request
        let body = try await request.body.collect(upTo: maxBodyBytes)
        request.body = RequestBody(buffer: body)
        var hash = SHA256()
        hash.update(data: Array("\(request.method.rawValue) \(request.uri.string)\n".utf8))
        hash.update(data: Array(buffer: body))
        let fingerprint = hash.finalize().map { String(format: "%02x", $0) }.joined()
        switch try await repository.claim(admin: context.admin, key: key, fingerprint: fingerprint) {
        case .answered(let stored):
            return stored.response
        case .reusedForAnotherRequest:
            throw Problem(.unprocessableContent, "idempotency_key_reused", "This Idempotency-Key was used with another request.")
        case .underWay:
            var problem = Problem(.conflict, "idempotency_key_in_use", "A request with this Idempotency-Key is still running; retry shortly.")
            problem.headers[.retryAfter] = "1"
            throw problem
        case .claimed:
            break
        }
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            try? await repository.release(admin: context.admin, key: key)
            throw error
        }
        guard (200..<300).contains(response.status.code) else {
            try? await repository.release(admin: context.admin, key: key)
            return response
        }
        let stored = try await StoredResponse(response)
        try await repository.answer(admin: context.admin, key: key, with: stored)
        return Response(status: response.status, headers: response.headers, body: .init(byteBuffer: ByteBuffer(bytes: stored.body)))
    }
}

extension StoredResponse {
    /// `response` with its body read.
    init(_ response: Response) async throws {
        let sink = BodySink()
        try await response.body.write(sink)
        self.init(status: response.status.code, contentType: response.headers[.contentType], location: response.headers[.location],
                  body: sink.bytes)
    }

    /// The response as first sent, marked as a replay.
    var response: Response {
        var headers: HTTPFields = [.idempotentReplayed: "true"]
        if let contentType { headers[.contentType] = contentType }
        if let location { headers[.location] = location }
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Collects a response body's bytes.
private final class BodySink: ResponseBodyWriter, @unchecked Sendable {
    var bytes: [UInt8] = []

    func write(_ buffer: ByteBuffer) async throws {
        bytes += buffer.readableBytesView
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
