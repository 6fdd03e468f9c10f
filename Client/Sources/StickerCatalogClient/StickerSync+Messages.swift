#if canImport(Messages)
    import Foundation
    import Messages

    /// A Messages extension's stickers (`MSStickerBrowserViewDataSource`: `numberOfStickers` is one group's
    /// `stickers(inGroupAt:).count`).
    public typealias MessagesStickers = GroupedStickers<MSSticker>

    // Not compiled on Linux: `GroupedStickers` and `snapshot`, all it calls, are tested there.
    extension StickerSync {
        /// The synced catalog's unlocked groups, each group's `MSSticker`s made when it is first shown; a sticker
        /// Messages refuses is skipped. Reads the catalog off the caller's thread at the first ask.
        /// - Throws: `StickerClientError.notSynced` before a first sync.
        public nonisolated func messagesStickers() async throws -> MessagesStickers {
            guard let catalog = await snapshot else { throw StickerClientError.notSynced }
            return GroupedStickers(catalog) { file, sticker in
                try MSSticker(contentsOfFileURL: file, localizedDescription: sticker.description)
            }
        }
    }
#endif
