extension Manifest {
    /// Every image the manifest names, each once, in the order a screen needs them: every group's cover (a list of
    /// groups paints first), then group by group in display order each sticker's thumbnail and then its picture (a
    /// group's grid, then what sending takes). A first sync fetches in this order, so what it has kept when it is cut
    /// short (a deadline, a lost network) is the top of the screen, whole groups first.
    var downloadOrder: [AssetLink] {
        var seen = Set<String>()
        var order: [AssetLink] = []
        func add(_ link: AssetLink) {
            if seen.insert(link.sha256).inserted { order.append(link) }
        }
        for group in groups {
            if let cover = group.cover { add(cover) }
        }
        for group in groups {
            for sticker in group.stickers {
                add(sticker.thumbnail)
                add(sticker.asset)
            }
        }
        return order
    }
}
