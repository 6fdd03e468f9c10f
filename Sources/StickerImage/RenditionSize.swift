/// The sizes stickers are served at: every size class of BRIEF.md's table at @1x, @2x and @3x.
public enum RenditionEdge {
    /// Box edges in pixels, ascending: small 100/200/300, medium 136/272/408, large 206/412/618.
    public static let all: [Int] = SizeClass.allCases.flatMap { size in (1...3).map { size.pixels(scale: $0) } }
        .sorted()

    /// The size of a `width` x `height` image fitted inside an `edge` x `edge` box with its aspect ratio kept, and
    /// never larger than the image itself (a box above its size gets its own pixels).
    public static func fitted(width: Int, height: Int, edge: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > edge else { return (width, height) }
        let scale = Double(edge) / Double(longest)
        return (
            min(edge, max(1, Int((Double(width) * scale).rounded()))),
            min(edge, max(1, Int((Double(height) * scale).rounded())))
        )
    }
}
