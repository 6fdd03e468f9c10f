import Foundation
import StickerCatalogAPI

/// What a sticker app shows and how it syncs: the view (the manifest's query parameters), the signed-in user's
/// token (premium groups), and limits.
public struct SyncOptions: Sendable {
    public var filter: String?
    public var flags: [String] = []
    public var locale: String?
    /// "small", "medium" or "large"; nil shows each group at its own size class.
    public var size: String?
    public var scale: Int?
    /// "png" for still pictures only.
    public var format: String?
    /// A user token (`Authorization: Bearer`), for premium groups and purchases; `credentials` when it expires.
    public var userToken: String?
    /// Where the signed-in user's token comes from (refreshed once on a 401); wins over `userToken`.
    public var credentials: Credentials?
    /// Downloads at once.
    public var concurrency = 8
    /// How long a file no longer named stays on disk (Messages may still show it).
    public var purgeGrace: TimeInterval = 86_400
    /// Tries per request: 503 and 429 are retried after their Retry-After, connection failures with backoff.
    public var attempts = 5
    /// Change-feed pages one sync reads at most before it takes the whole manifest instead.
    public var maxPages = 100
    public var backoff = Backoff()

    public init() {}

    /// The view as a key: a catalog synced for another view starts over.
    var viewKey: String {
        [filter ?? "", flags.sorted().joined(separator: ","), size ?? "", scale.map(String.init) ?? "", format ?? "", locale ?? ""].joined(separator: "|")
    }

    var signIn: Credentials? { credentials ?? userToken.map(Credentials.token) }

    var flagList: String? { flags.isEmpty ? nil : flags.sorted().joined(separator: ",") }

    var sizeClass: Components.Schemas.SizeClass? {
        get throws {
            guard let size else { return nil }
            guard let value = Components.Schemas.SizeClass(rawValue: size) else { throw StickerClientError.invalidAnswer("size must be small, medium or large") }
            return value
        }
    }

    var scaleValue: Components.Parameters.Scale? {
        get throws {
            guard let scale else { return nil }
            guard let value = Components.Parameters.Scale(rawValue: scale) else { throw StickerClientError.invalidAnswer("scale must be 1, 2 or 3") }
            return value
        }
    }

    var formatValue: Components.Parameters.Format? {
        get throws {
            guard let format else { return nil }
            guard let value = Components.Parameters.Format(rawValue: format) else { throw StickerClientError.invalidAnswer("format must be png or apng") }
            return value
        }
    }
}
