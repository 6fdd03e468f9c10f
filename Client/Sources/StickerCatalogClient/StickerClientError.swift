import Foundation
import OpenAPIRuntime

/// What went wrong talking to the service or keeping its files; `underlying` keeps the cause where there is one.
public enum StickerClientError: Error, Sendable, Equatable {
    /// The service refused: its status and the problem's stable `code` (nil when it sent none).
    case refused(status: Int, code: String?, detail: String?)
    /// A downloaded file did not match the digest or byte count the manifest gives, on every try.
    case corrupt(sha256: String)
    /// The service could not be reached, on every try: what was asked and the transport's reason, and its kind.
    case unreachable(String, reason: NetworkFailure)
    /// The service was busy (503) or asked to slow down (429) on every try; `retryAfter` is when it asked to be tried
    /// again, if it said.
    case unavailable(status: Int, code: String?, retryAfter: Duration?)
    /// An answer broke what the client accepts: too long, not the stated shape, or going back in time.
    case invalidAnswer(String)
    /// Nothing has been synced into the directory yet.
    case notSynced
    /// The folder could not be written or read: what was done, and the system's reason (`ENOSPC`: the disk is full).
    case storage(String, errno: POSIXErrorCode?)
    /// The app's `Credentials` could not give a token (the user must sign in again): the provider's own error. Never
    /// retried, and not a network failure.
    case credentialsUnavailable(underlying: UnderlyingError)
    /// The sync did not finish within its deadline (`SyncOptions.deadline`): the files it kept stay kept, and the next
    /// sync goes on from them.
    case timedOut(after: Duration)
    /// Another process (an app's extension) held the folder's lock for longer than `SyncOptions.lockWait` while this
    /// sync was ready to commit; the files it fetched stay kept, and the next sync commits them.
    case busy
}

extension StickerClientError {
    /// `error` as this library reports it: a `StickerClientError` or a `CancellationError` as it is, one the generated
    /// client wrapped (`ClientError`) unwrapped, and anything else as `unreachable` (a transport's failure) or
    /// `invalidAnswer` (an answer that did not decode), its text redacted: no error leaves this library naming a signed
    /// URL, whatever threw it.
    static func from(_ error: any Error) -> any Error {
        switch error {
        case is StickerClientError, is CancellationError: return error
        case let error as ClientError:
            if error.underlyingError is StickerClientError || error.underlyingError is CancellationError {
                return error.underlyingError
            }
            return StickerClientError.invalidAnswer(
                "\(error.operationID): \(error.causeDescription): \(Redaction.describe(error.underlyingError))")
        case is DecodingError: return StickerClientError.invalidAnswer(Redaction.describe(error))
        default: return StickerClientError.unreachable(Redaction.describe(error), reason: .of(error))
        }
    }
}

/// An error as something else threw it, kept whole in `error`; two are equal when they describe the same.
public struct UnderlyingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let error: any Error

    public init(_ error: any Error) { self.error = error }

    /// What `error` says, with every URL's query and fragment cut (`Redaction`): a provider's error may name one.
    public var description: String { Redaction.describe(error) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        String(reflecting: lhs.error) == String(reflecting: rhs.error)
    }
}
