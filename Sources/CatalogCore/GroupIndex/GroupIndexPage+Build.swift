extension GroupIndexPage {
    /// The page `request` asks for, as `query` (normalised) shows `snapshot`: a plain function of its inputs.
    ///
    /// A walk follows the order of the catalog at its first page. `pinned` is that order (group ids) when the walk
    /// began at another snapshot and this replica still holds it (`GroupOrders`): the walk goes on in it, each group
    /// as it is now, so a group added, moved or removed between pages is never sent twice and no group that stayed is
    /// skipped. Without it (another replica, or an order long evicted) the walk goes on after the last group sent, in
    /// the order of now. Throws `unknownFilter` for a filter the catalog does not define.
    package static func build(
        from snapshot: CatalogSnapshot, query: ManifestQuery, request: GroupIndexRequest, pinned: [String]?,
        linker: AssetLinker
    ) throws(CatalogError) -> GroupIndexPage {
        let required = try Manifest.requiredFlags(snapshot, query)
        let shown = query.shownGroups(in: snapshot)
        let current = snapshot.groups.map(\.id)
        var order = current
        var start = 0
        var point = (revision: snapshot.revision, stamp: snapshot.stamp)
        if let cursor = request.cursor {
            let here = cursor.revision == snapshot.revision && cursor.stamp == snapshot.stamp
            if here, current.indices.contains(cursor.index), current[cursor.index] == cursor.after {
                start = cursor.index + 1
            } else if let pinned, pinned.indices.contains(cursor.index), pinned[cursor.index] == cursor.after {
                (order, start, point) = (pinned, cursor.index + 1, (cursor.revision, cursor.stamp))
            } else {
                start = current.firstIndex(of: cursor.after).map { $0 + 1 } ?? min(cursor.index + 1, current.count)
            }
        }
        var byId: [String: (group: StickerGroup, position: Int)] = [:]
        byId.reserveCapacity(shown.count)
        for (group, position) in shown { byId[group.id] = (group, position) }
        var summaries: [GroupSummary] = []
        var next: GroupCursor?
        var last = start - 1
        for index in order.indices.dropFirst(start) {
            guard request.includes(order[index]), let (group, position) = byId[order[index]] else { continue }
            let stickers = snapshot.stickers[group.id] ?? []
            let name = localized(group.localizedNames, locale: query.locale, fallback: group.name)
            guard !stickers.isEmpty, request.matches([name, group.name, group.id]),
                required.isEmpty
                    || stickers.contains(where: {
                        isSelected(requiredFlags: required, groupFlags: group.flags, stickerFlags: $0.flags)
                    })
            else { continue }
            // One more group that matches: the page is full and there is a next one, which starts after the last sent.
            if summaries.count == request.limit {
                next = GroupCursor(revision: point.revision, stamp: point.stamp, index: last, after: order[last])
                break
            }
            guard
                let summary = GroupSummary(
                    group, position: position, stickers: stickers, contentVersion: snapshot.contentVersions[group.id],
                    query: query, linker: linker)
            else { continue }
            summaries.append(summary)
            last = index
        }
        return GroupIndexPage(
            revision: snapshot.revision, groups: summaries, next: next?.encoded(with: linker.cursorKey))
    }
}
