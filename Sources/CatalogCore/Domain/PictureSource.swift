import StickerImage

/// One picture of a sticker for a web page's `<picture>` (`sources=all`): the sticker fitted to the view's size class
/// at each scale (1x to 3x), as WebP and as PNG (APNG when it moves, unless the view asked for stills), so a browser
/// picks by its format support and its pixel density. Only the view's own `asset` carries a digest and a byte count:
/// these are for `srcset`, not for a client that stores files.
package struct PictureSource: Codable, Sendable, Equatable {
    /// `webp` or `png`: the file's format (a sticker whose WebP renditions are not made yet has PNG ones only).
    package var format: String
    package var scale: Int
    package var url: String
    package var width: Int
    package var height: Int

    /// Every distinct picture of `sticker` in `points`-point boxes at scales 1 to 3, WebP first.
    package static func all(
        _ sticker: Sticker, points edge: Int, scale: Int, still: Bool, linker: AssetLinker, signedUntil: Int64?
    ) -> [PictureSource] {
        var sources: [PictureSource] = []
        var seen = Set<String>()
        for file in [ImageFormat.webp, .png] {
            for each in 1...3 {
                // Size classes are whole points, so the box at another scale is the view's box scaled.
                let picture = sticker.picture(edge: edge * each / scale, still: still, file: file)
                guard picture.format == file, seen.insert(picture.sha256).inserted else { continue }
                let link = linker.link(picture, signedUntil: signedUntil)
                sources.append(
                    PictureSource(
                        format: file == .webp ? "webp" : "png", scale: each, url: link.url, width: link.width,
                        height: link.height))
            }
        }
        return sources
    }
}
