import CatalogCore
import StickerImage

/// Which part of the catalog an export takes: the groups a view shows (with a filter, or one group), with its texts in
/// a language, as a `viewer` stating facts sees it (`Viewer.anyone`: everyone's view, without restricted groups).
/// Premium groups stay out: a pack on another platform is free for whoever has it, so the viewer holds no product.
package struct ExportSelection: Sendable, Hashable {
    package var filter: String?
    package var group: String?
    package var locale: String?
    /// The size class of an iMessage export's grid and pictures; each group's own by default.
    package var size: SizeClass?
    /// Whose view of restricted groups it is.
    package var viewer: Viewer

    package init(
        filter: String? = nil, group: String? = nil, locale: String? = nil, size: SizeClass? = nil, viewer: Viewer
    ) {
        (self.filter, self.group, self.locale, self.size, self.viewer) = (filter, group, locale, size, viewer)
    }

    /// From query parameters or command options, each checked as the manifest's are.
    package init(parameters: [String: String]) throws(CatalogError) {
        let query = try ManifestQuery(parameters: parameters.filter { ["filter", "locale", "size"].contains($0.key) })
        if let group = parameters["group"] {
            guard Validate.isSlug(group) else {
                throw .invalidParameter(name: "group", rule: "must be a group id such as chewy")
            }
            self.group = group
        }
        (filter, locale, size) = (query.filter, query.locale, query.size)
        viewer = Viewer(held: [], facts: try AudienceFacts(parameters: parameters))
    }

    /// The view an export reads: @3x pictures, texts in its language.
    package var query: ManifestQuery {
        ManifestQuery(filter: filter, size: size, scale: 3, locale: locale)
    }

    /// The groups of `snapshot` this selection takes, as its view shows them, and what it leaves out and why.
    /// Throws `notFound` for a group the view does not show, `invalid` for a premium one asked for by name.
    package func groups(
        in snapshot: CatalogSnapshot, linker: AssetLinker
    ) throws(CatalogError) -> (manifest: Manifest, groups: [ManifestGroup], notes: [String]) {
        let view = viewer.view(query, in: snapshot, signer: nil, now: nil)
        let manifest = try Manifest.build(from: snapshot, query: view, linker: linker)
        var shown = manifest.groups
        if let group {
            shown = shown.filter { $0.id == group }
            guard !shown.isEmpty else {
                throw .notFound("Group '\(group)'" + (filter.map { " in filter '\($0)'" } ?? ""))
            }
        }
        let premium = shown.filter { $0.productId != nil }  // held or not: a pack is free for whoever has it
        if group != nil, !premium.isEmpty {
            throw .invalid(
                "group",
                "is premium: a pack on another platform is free for whoever has it, so premium groups are not exported")
        }
        let notes = premium.map {
            "\($0.id): left out, premium (a pack on another platform is free for whoever has it)"
        }
        return (manifest, shown.filter { $0.productId == nil }, notes)
    }
}
