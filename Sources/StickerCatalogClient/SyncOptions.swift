import Foundation

/// What a sticker app shows and how it syncs: the view (the manifest's query parameters), the signed-in user's
/// token (premium groups), and limits.
public struct SyncOptions: Sendable, Equatable {
    public var filter: String?
    public var flags: [String] = []
    public var locale: String?
    /// "small", "medium" or "large"; nil shows each group at its own size class.
    public var size: String?
    public var scale: Int?
    /// "png" for still pictures only.
    public var format: String?
    /// A user token (`Authorization: Bearer`), for premium groups and purchases.
    public var userToken: String?
    /// Downloads at once.
    public var concurrency = 8
    /// How long a file no longer named stays on disk (Messages may still show it).
    public var purgeGrace: TimeInterval = 86_400
    /// Tries per request: 503 and 429 are retried after their Retry-After, connection failures with backoff.
    public var attempts = 5

    public init() {}

    /// The view's query string, the same for the manifest, the change feed and the event stream.
    public var viewQuery: String {
        var items: [URLQueryItem] = []
        if let filter { items.append(URLQueryItem(name: "filter", value: filter)) }
        if !flags.isEmpty { items.append(URLQueryItem(name: "flags", value: flags.sorted().joined(separator: ","))) }
        if let size { items.append(URLQueryItem(name: "size", value: size)) }
        if let scale { items.append(URLQueryItem(name: "scale", value: String(scale))) }
        if let format { items.append(URLQueryItem(name: "format", value: format)) }
        if let locale { items.append(URLQueryItem(name: "locale", value: locale)) }
        var components = URLComponents()
        components.queryItems = items
        return components.percentEncodedQuery ?? ""
    }
}
