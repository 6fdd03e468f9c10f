import StickerImage

extension Manifest {
    /// Builds the manifest for `query` from `snapshot`: a plain function of its inputs.
    /// Throws `unknownFilter` for a filter the catalog does not define.
    package static func build(
        from snapshot: CatalogSnapshot, query: ManifestQuery, linker: AssetLinker
    ) throws(CatalogError) -> Manifest {
        let required = try requiredFlags(snapshot, query)
        var manifest = empty(snapshot, query, cursorKey: linker.cursorKey)
        manifest.groups = query.shownGroups(in: snapshot).compactMap { group, position in
            ManifestGroup(
                group, position: position, stickers: snapshot.stickers[group.id] ?? [], required: required,
                query: query, linker: linker)
        }
        return manifest
    }

    /// The flags a sticker needs to be selected: the query's own and its filter's.
    /// Throws `unknownFilter` for a filter the catalog does not define.
    package static func requiredFlags(
        _ snapshot: CatalogSnapshot, _ query: ManifestQuery
    ) throws(CatalogError) -> Set<String> {
        var required = Set(query.flags)
        if let name = query.filter {
            guard let filter = snapshot.filters[name] else { throw .unknownFilter(name) }
            required.formUnion(filter.flags)
        }
        return required
    }

    /// The manifest's own fields, with no groups yet; its cursor signed with `cursorKey`.
    package static func empty(_ snapshot: CatalogSnapshot, _ query: ManifestQuery, cursorKey: CursorKey) -> Manifest {
        let cursor = ChangeCursor(revision: snapshot.revision, stamp: snapshot.stamp, query: query).encoded(
            with: cursorKey)
        return Manifest(
            revision: snapshot.revision, cursor: cursor, filter: query.filter, flags: query.flags, size: query.size,
            scale: query.scale, format: query.format == .apng ? nil : query.format.rawValue, locale: query.locale,
            groups: [])
    }
}

extension ManifestGroup {
    /// One group as the client sees it, or nil when none of its stickers is selected. `position` is its place among
    /// the groups the caller sees (`ManifestQuery.position(of:in:)`), never among all: a gap would show where a
    /// restricted group is.
    /// `page`: the places among the selected stickers to list (`StickerPage`), all when nil.
    package init?(
        _ group: StickerGroup, position: Int, stickers: [Sticker], required: Set<String> = [], query: ManifestQuery,
        linker: AssetLinker, page: Range<Int>? = nil
    ) {
        var selected = stickers.filter {
            isSelected(requiredFlags: required, groupFlags: group.flags, stickerFlags: $0.flags)
        }
        guard !selected.isEmpty else { return nil }
        if let page { selected = Array(selected[page.clamped(to: selected.indices)]) }
        let cover = group.cover(among: stickers)
        let locked = group.productId.map { !query.unlocked.contains($0) } ?? false
        // An unlocked premium group's images, and a restricted group's, are served only with a signed URL.
        let signedUntil = group.productId == nil && group.audience == nil ? nil : query.signedUntil
        let edge = query.edge(for: group)
        self.init(
            id: group.id,
            name: localized(group.localizedNames, locale: query.locale, fallback: group.name),
            description: group.description(in: query.locale),
            sizeClass: group.sizeClass,
            flags: group.flags,
            position: position,
            locked: locked,
            productId: group.productId,
            cover: cover.map {
                linker.link(
                    $0.picture(edge: edge, format: query.format),
                    signedUntil: group.audience == nil ? nil : query.signedUntil)
            },
            stickers: locked
                ? []
                : selected.map {
                    ManifestSticker($0, edge: edge, query: query, linker: linker, signedUntil: signedUntil)
                })
    }
}

extension ManifestSticker {
    package init(_ sticker: Sticker, edge: Int, query: ManifestQuery, linker: AssetLinker, signedUntil: Int64?) {
        let picture = sticker.picture(edge: edge, format: query.format)
        self.init(
            id: sticker.id.apiString,
            name: sticker.name,
            description: localized(sticker.localizedDescriptions, locale: query.locale, fallback: sticker.description),
            flags: sticker.flags,
            keywords: sticker.keywords,
            emoji: sticker.emoji,
            animated: picture.animated,
            frames: picture.frames,
            durationMs: picture.durationMs,
            loops: picture.loops,
            asset: linker.link(picture, signedUntil: signedUntil),
            thumbnail: linker.link(
                sticker.picture(edge: SizeClass.small.pixels(scale: query.scale), still: true, file: query.format.file),
                signedUntil: signedUntil),
            placeholder: sticker.placeholder,
            sources: query.sources
                ? PictureSource.all(
                    sticker, points: edge, scale: query.scale, still: query.still, linker: linker,
                    signedUntil: signedUntil)
                : nil)
    }
}
