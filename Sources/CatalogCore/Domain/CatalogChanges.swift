/// What the change log says changed between two revisions: groups (their own fields or their stickers), stickers
/// deleted, filters redefined.
package struct CatalogChanges: Sendable, Equatable {
    package var groups: Set<String> = []
    package var deletedStickers: Set<String> = []
    package var filters: Set<String> = []

    package init() {}
}
