import StickerImage

/// A stored rendition of a sticker's image: the picture fitted in an `edge` x `edge` box, still or animated, PNG or
/// WebP.
package struct StickerRendition: Codable, Sendable, Equatable {
    package var edge: Int
    package var still: Bool
    package var format: ImageFormat
    package var asset: Asset

    package init(edge: Int, still: Bool, format: ImageFormat = .png, asset: Asset) {
        (self.edge, self.still, self.format, self.asset) = (edge, still, format, asset)
    }
}

extension Sticker {
    /// The picture to serve in an `edge` box in `format`, still when asked (an animation's still picture): the
    /// rendition made for it, or the uploaded image while renditions have not been made (a catalog from before them,
    /// until `stickerd renditions rebuild`), so a manifest never names a picture that is not stored.
    package func picture(edge: Int, format: PictureFormat) -> Asset {
        picture(edge: edge, still: format.still, file: format.file)
    }

    /// The picture in an `edge` box, still or not, as a `file` format file; a sticker whose WebP renditions are not
    /// made yet (stored before them, until `stickerd renditions rebuild`) gets its PNG one of that size, not the full
    /// upload.
    package func picture(edge: Int, still: Bool, file: ImageFormat) -> Asset {
        let wantStill = still || !asset.animated
        // A loop, not a filter: manifests and search ask this for every sticker they show.
        var png: Asset?
        for rendition in renditions where rendition.edge == edge && rendition.still == wantStill {
            if rendition.format == file { return rendition.asset }
            if rendition.format == .png { png = rendition.asset }
        }
        return png ?? asset
    }
}
