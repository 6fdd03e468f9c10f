import Foundation
import Hummingbird
import StickerImage

/// An RFC 9457 problem: every error the API answers, as `application/problem+json` with a stable `code`.
public struct Problem: HTTPResponseError, Sendable {
    /// One bad field of a request.
    public struct FieldError: Codable, Sendable, Equatable {
        public var field: String
        public var message: String
    }

    public var status: HTTPResponse.Status
    public var code: String
    public var detail: String
    public var errors: [FieldError] = []
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    /// The body clients parse.
    struct Body: Encodable {
        var type = "about:blank"
        var title: String
        var status: Int
        var code: String
        var detail: String
        var instance: String
        var errors: [FieldError]?
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(title: status.reasonPhrase, status: status.code, code: code, detail: detail,
                        instance: request.uri.path, errors: errors.isEmpty ? nil : errors)
        var fields = headers
        fields[.contentType] = "application/problem+json"
        let data = try Self.encoder.encode(body)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension Problem {
    public static func invalidParameter(_ name: String, _ rule: String) -> Problem {
        Problem(.badRequest, "invalid_parameter", "Query parameter '\(name)' \(rule).")
    }

    public static func unknownFilter(_ name: String) -> Problem {
        Problem(.badRequest, "unknown_filter", "There is no filter named '\(name)'; GET /v1/filters lists them.")
    }

    public static func validationFailed(_ errors: [FieldError]) -> Problem {
        var problem = Problem(.unprocessableContent, "validation_failed",
                              errors.map { "\($0.field) \($0.message)" }.joined(separator: "; ") + ".")
        problem.errors = errors
        return problem
    }

    public static func validationFailed(_ field: String, _ message: String) -> Problem {
        validationFailed([FieldError(field: field, message: message)])
    }

    public static func notFound(_ what: String) -> Problem {
        Problem(.notFound, "not_found", "\(what) does not exist.")
    }

    public static func conflict(_ detail: String) -> Problem {
        Problem(.conflict, "conflict", detail)
    }

    public static var unauthorized: Problem {
        var problem = Problem(.unauthorized, "unauthorized", "A valid admin token is required: send 'Authorization: Bearer TOKEN'.")
        problem.headers[.wwwAuthenticate] = #"Bearer realm="stickerd""#
        return problem
    }

    public static func invalidBody(_ detail: String) -> Problem {
        Problem(.badRequest, "invalid_body", detail)
    }

    public static func tooLarge(limit: Int) -> Problem {
        Problem(.contentTooLarge, "too_large", "The upload is larger than \(limit) bytes; a sticker must be at most \(limit) bytes.")
    }

    /// The problem for an image the sticker rules refuse.
    public static func image(_ rejection: StickerRejection) -> Problem {
        let status: HTTPResponse.Status = switch rejection {
        case .tooLarge: .contentTooLarge
        case .unsupportedFormat: .unsupportedMediaType
        case .empty, .dimensionsOutOfRange, .corrupt, .invalidAnimation, .tooManyFrames, .animationTooLong: .unprocessableContent
        }
        var problem = Problem(status, rejection.code, rejection.detail)
        if case .empty = rejection { problem.errors = [FieldError(field: "file", message: "is empty")] }
        return problem
    }
}
