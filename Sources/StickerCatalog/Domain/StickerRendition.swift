/// A stored rendition of a sticker's image: the picture fitted in an `edge` x `edge` box, still or animated.
public struct StickerRendition: Codable, Sendable, Equatable {
    public var edge: Int
    public var still: Bool
    public var asset: Asset

    public init(edge: Int, still: Bool, asset: Asset) {
        (self.edge, self.still, self.asset) = (edge, still, asset)
    }
}

extension Sticker {
    /// The picture to serve in an `edge` box, still when asked (an APNG's default image): the rendition made for it,
    /// or the uploaded image while renditions have not been made (a catalog from before them, until
    /// `stickerd renditions rebuild`), so a manifest never names a picture that is not stored.
    public func picture(edge: Int, still: Bool) -> Asset {
        let wantStill = still || !asset.animated
        return renditions.first { $0.edge == edge && $0.still == wantStill }?.asset ?? asset
    }
}
