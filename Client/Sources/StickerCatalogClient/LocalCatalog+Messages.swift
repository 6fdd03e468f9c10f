#if canImport(Messages)
    import Foundation
    import Messages

    // An iMessage app's stickers from the last sync. Not compiled on Linux: everything it calls (`load`,
    // `fileURL(for:)`) is tested there.
    extension LocalCatalog {
        /// The synced stickers of unlocked groups as `MSSticker`s, by group id, in display order.
        /// - Throws: `StickerClientError.notSynced` before a first sync; Messages' error for a file it refuses.
        public func messagesStickers() throws -> [(group: ManifestGroup, stickers: [MSSticker])] {
            guard let manifest = load()?.manifest else { throw StickerClientError.notSynced }
            return try manifest.groups.filter { !$0.locked }.map { group in
                (
                    group,
                    try group.stickers.map { sticker in
                        try MSSticker(
                            contentsOfFileURL: fileURL(for: sticker.asset), localizedDescription: sticker.description)
                    }
                )
            }
        }
    }
#endif
