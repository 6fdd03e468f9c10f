/// What the change log says changed between two revisions: groups (their own fields or their stickers), stickers
/// deleted, filters redefined.
public struct CatalogChanges: Sendable, Equatable {
    public var groups: Set<String> = []
    public var deletedStickers: Set<String> = []
    public var filters: Set<String> = []

    public init() {}
}
