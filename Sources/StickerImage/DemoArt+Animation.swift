extension DemoArt {
    /// A `side` x `side` animated sticker: the candy `name` sliding across in `frames` steps of 100 ms; nil for a side
    /// smaller than the candy (408 px).
    public static func animation(_ name: String, side: Int = 618, frames: Int = 30) -> [UInt8]? {
        guard let still = png(name), let art = try? PNGCodec.decode(still, maxPixels: 408 * 408), side >= art.width,
            side >= art.height
        else { return nil }
        let pictures = (0..<frames).map { index in
            var pixels = [UInt8](repeating: 0, count: side * side * 4)
            let offset = (side - art.width) * index / max(1, frames - 1)
            for row in 0..<min(art.height, side) {
                let target = ((row + (side - art.height) / 2) * side + offset) * 4
                pixels.replaceSubrange(
                    target..<(target + art.width * 4),
                    with: art.pixels[(row * art.width * 4)..<((row + 1) * art.width * 4)])
            }
            return APNGEncoder.Frame(image: RGBAImage(width: side, height: side, pixels: pixels))
        }
        return try? APNGEncoder.encode(frames: pictures)
    }
}
