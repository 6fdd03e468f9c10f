extension StickerSync {
    /// Stickers matching `text` (words, prefixes, a typo, emoji) in this sync's view, best first, as the service ranks
    /// them: one page of at most `limit` (1-100); pass the page's `next` as `after` for the one after it. Locked
    /// results (premium groups the user does not hold) come with their `productId` and no pictures, to offer for sale.
    /// Nothing is stored: the pictures of an unlocked result are those the synced folder holds under the same digest.
    /// - Throws: `StickerClientError.refused` (400) for a blank query, one over 100 characters or a cursor not given
    ///   by the service.
    public func search(_ text: String, limit: Int? = nil, after cursor: String? = nil) async throws -> SearchPage {
        try await service.search(text, view: view, limit: limit, cursor: cursor)
    }

    /// Up to ten completions of `prefix` (keywords and names) for a search box, the view's locale first.
    public func suggestions(_ prefix: String) async throws -> [String] {
        try await service.suggestions(prefix, locale: view.language)
    }
}
