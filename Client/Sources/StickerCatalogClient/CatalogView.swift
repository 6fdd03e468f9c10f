import Foundation
import StickerCatalogAPI

/// A display size class: small 100 pt, medium 136 pt, large 206 pt (times the scale in pixels).
public typealias StickerSize = Components.Schemas.SizeClass
/// `.png` for still PNG pictures only (an animation's still picture), `.apng` (PNG, animated where the sticker moves),
/// `.webp`.
public typealias StickerFormat = Components.Parameters.Format

/// A screen's pixel density.
public enum DisplayScale: Int, Sendable, Hashable, CaseIterable {
    case x1 = 1
    case x2 = 2
    case x3 = 3
}

/// What an app shows: the manifest's view of the catalog. Filters and flags are the catalog's own names; the rest is
/// typed, so a view the service would refuse cannot be written.
public struct CatalogView: Sendable, Hashable {
    /// A filter the catalog defines ("chocoholic"); nil shows every group.
    public var filter: String?
    /// Flags every shown sticker must carry, on top of the filter's.
    public var flags: Set<String>
    /// Texts in this language where the catalog has them (its language and region are sent, `pt-BR`).
    public var locale: Locale?
    /// nil shows each group at its own size class.
    public var size: StickerSize?
    /// nil is the service's default (3).
    public var scale: DisplayScale?
    /// nil is as uploaded.
    public var format: StickerFormat?

    public init(
        filter: String? = nil, flags: Set<String> = [], locale: Locale? = nil, size: StickerSize? = nil,
        scale: DisplayScale? = nil, format: StickerFormat? = nil
    ) {
        (self.filter, self.flags, self.locale, self.size, self.scale, self.format) = (
            filter, flags, locale, size, scale, format
        )
    }

    /// The view as a key: a catalog synced for another view starts over.
    var key: String {
        [
            filter ?? "", flags.sorted().joined(separator: ","), size?.rawValue ?? "",
            scale.map { String($0.rawValue) } ?? "",
            format?.rawValue ?? "", language ?? "",
        ].joined(separator: "|")
    }

    var flagList: String? { flags.isEmpty ? nil : flags.sorted().joined(separator: ",") }

    var scaleValue: Components.Parameters.Scale? {
        scale.flatMap { Components.Parameters.Scale(rawValue: $0.rawValue) }
    }

    /// The locale as the service reads it: language and region only (`en_US_POSIX`'s variant would be refused).
    var language: String? {
        guard let locale, let code = locale.language.languageCode?.identifier else { return nil }
        return locale.region.map { "\(code)-\($0.identifier)" } ?? code
    }
}
