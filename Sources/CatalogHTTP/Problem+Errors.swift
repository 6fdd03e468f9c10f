import CatalogCore
import CatalogServices
import FormData
import Hummingbird
import Purchases
import StickerCatalogExport
import StickerImage
import StickerPacks

/// The one place where errors of the domain, the store, the image rules and the upload reader become problems.
extension Problem {
    /// The problem for any error; nil for an error nobody foresaw (a 500, logged).
    package init?(_ error: any Error) {
        switch error {
        case let problem as Problem: self = problem
        case let error as CatalogError: self = Problem(catalog: error)
        case let error as EntitlementError: self = Problem(entitlement: error)
        case let error as PurchaseError: self = Problem(purchase: error, quarantinedAs: nil)
        case let rejection as StickerRejection: self = Problem(image: rejection)
        case let error as FormDataError: self = Problem(form: error)
        case let error as PackError:
            self = Problem(.unprocessableContent, "export_failed", "The export cannot be made: \(error.description).")
        case let error as XCStickers.Failure:
            switch error {
            case .empty:
                self = Problem(
                    .unprocessableContent, "nothing_to_export", "No pack can be made: the view shows no free sticker.")
            case .tooLarge(let sticker, let bytes):
                self = Problem(
                    .unprocessableContent, "export_failed",
                    "Sticker \(sticker) is \(bytes) bytes, over the \(XCStickers.maxFileBytes) Messages takes.")
            case .notPNG(let sticker):
                self = Problem(
                    .unprocessableContent, "export_failed", "Sticker \(sticker) is not a PNG, which Messages needs.")
            }
        case is DatabaseUnavailable: self = .databaseUnavailable
        // Met only when the request that holds the key vanished between its commit and this look (gc, or its day ran
        // out).
        case is IdempotencyKeyTaken:
            self = Problem(
                .conflict, "idempotency_key_in_use",
                "A request with this Idempotency-Key was being written; retry shortly.")
            headers[.retryAfter] = "1"
        // A request still running when the shutdown grace ran out: its client may try again elsewhere.
        case is CancellationError:
            self = Problem(.serviceUnavailable, "not_ready", "This replica is shutting down; try again.")
            headers[.retryAfter] = "1"
        case let error as HTTPError: self = Problem(http: error)
        // Hummingbird's other errors that carry a status (a body over the size limit is NIOTooManyBytesError).
        case let error as any HTTPResponseError: self = Problem(http: HTTPError(error.status))
        default: return nil
        }
    }

    package init(catalog error: CatalogError) {
        switch error {
        case .notFound(let what): self = .notFound(what)
        case .conflict(let detail): self = Problem(.conflict, "conflict", detail)
        case .invalid(let issues): self = .validationFailed(issues)
        case .invalidSchedule(let issues):
            self = Problem(
                .badRequest, "invalid_schedule",
                issues.map { "\($0.field) \($0.message)" }.joined(separator: "; ") + ".")
            errors = issues
        case .unknownFilter(let name):
            // A well-formed name the catalog does not define: a manifest that does not exist, not a malformed request.
            self = Problem(
                .notFound, "unknown_filter", "There is no filter named '\(name)'; GET /v1/filters lists them.")
        case .invalidParameter(let name, let rule): self = .invalidParameter(name, rule)
        case .invalidHeader(let name, let rule):
            self = Problem(.badRequest, "invalid_parameter", "Header '\(name)' \(rule).")
        case .cursorExpired(let detail): self = Problem(.gone, "cursor_expired", detail)
        case .tooLarge(let detail): self = Problem(.contentTooLarge, "manifest_too_large", detail)
        }
    }

    /// A purchase event refused: malformed (400), not authentic (401), for another app or environment (422).
    package init(purchase error: PurchaseError, quarantinedAs id: Int64?) {
        let kept = id.map { " Kept in quarantine as webhook event \($0)." } ?? ""
        switch error {
        case .malformed(let reason):
            self = Problem(.badRequest, "invalid_event", "The event is malformed: \(reason).\(kept)")
        case .unauthorized(let reason):
            self = Problem(.unauthorized, "invalid_signature", "The event is not authentic: \(reason).\(kept)")
        case .rejected(let reason):
            self = Problem(
                .unprocessableContent, "wrong_app_or_environment",
                "The event is not for this app or URL: \(reason).\(kept)")
        }
    }

    package init(entitlement error: EntitlementError) {
        switch error {
        case .boundElsewhere(let detail): self = Problem(.conflict, "transaction_bound_elsewhere", detail)
        case .notReplayable(let detail): self = Problem(.unprocessableContent, "not_replayable", detail)
        }
    }

    /// An image the sticker rules refuse.
    package init(image rejection: StickerRejection) {
        let status: HTTPResponse.Status =
            switch rejection {
            case .tooLarge: .contentTooLarge
            case .unsupportedFormat: .unsupportedMediaType
            case .empty, .dimensionsOutOfRange, .corrupt, .invalidAnimation, .tooManyFrames, .animationTooLong,
                .renditionTooLarge:
                .unprocessableContent
            }
        self = Problem(status, rejection.code, rejection.detail)
        if case .empty = rejection { errors = [FieldIssue(field: "file", message: "is empty")] }
    }

    package init(form error: FormDataError) {
        switch error {
        case .invalidBoundary:
            self = .validationFailed(
                [FieldIssue(field: "Content-Type", message: "needs a boundary of 1 to 70 characters (RFC 2046)")],
                status: .badRequest)
        case .tooLarge(let limit): self = .tooLarge(limit: limit)
        case .partTooLarge(let name, let limit): self = .tooLarge(limit: limit, what: "The form part '\(name)'")
        case .tooManyParts(let limit):
            self = Problem(.contentTooLarge, "too_large", "The form has more than \(limit) parts.")
        case .tooManyHeaders(let limit):
            self = Problem(.contentTooLarge, "too_large", "A form part has more than \(limit) headers.")
        case .malformed(let reason): self = .invalidBody("The multipart/form-data body is malformed: \(reason).")
        }
    }

    /// Hummingbird's own errors (unknown route, body too large, undecodable JSON).
    package init(http error: HTTPError) {
        let detail = error.body ?? error.status.reasonPhrase
        switch error.status {
        case .notFound: self = Problem(.notFound, "not_found", "No such resource.")
        case .contentTooLarge: self = Problem(.contentTooLarge, "too_large", "The request body is too large.")
        case .badRequest: self = .invalidBody(detail)
        case .unsupportedMediaType: self = Problem(.unsupportedMediaType, "unsupported_media_type", detail)
        default: self = Problem(error.status, error.status.code < 500 ? "bad_request" : "internal_error", detail)
        }
        headers.append(contentsOf: error.headers)
    }
}
