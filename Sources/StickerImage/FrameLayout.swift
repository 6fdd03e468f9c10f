/// How every frame of an APNG stores its pixels: all frames share the file's IHDR, so the layout is chosen once, for
/// the whole animation, from what the source guarantees of every canvas. Smaller layouts are exact or not chosen.
public enum FrameLayout: Sendable, Equatable {
    /// 8-bit RGBA: any picture.
    case rgba
    /// 8-bit RGB: every canvas is opaque (a GIF that never shows the canvas through, any JPEG).
    case rgb
    /// 8-bit indices into at most 256 RGBA entries, transparent ones first (tRNS stops short of the opaque ones): every
    /// canvas holds only these colours (a GIF at its own size: its colour tables and transparent black).
    case palette([UInt32])

    /// A palette of `colours` (each 0xRRGGBBAA), transparent ones first; nil past 256.
    public static func palette(of colours: Set<UInt32>) -> FrameLayout? {
        guard colours.count <= 256 else { return nil }
        return .palette(colours.sorted { ($0 & 0xFF, $0) < ($1 & 0xFF, $1) })
    }

    /// The PNG colour type and the chunks between IHDR and the image data.
    var colourType: UInt8 {
        switch self {
        case .rgba: 6
        case .rgb: 2
        case .palette: 3
        }
    }

    /// PLTE and, when some entry is not opaque, tRNS.
    var paletteChunks: [(String, [UInt8])] {
        guard case .palette(let entries) = self else { return [] }
        let colours = entries.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF)] }
        let alphas = entries.map { UInt8($0 & 0xFF) }
        let transparent = alphas.lastIndex { $0 != 255 }.map { Array(alphas[...$0]) } ?? []
        return [("PLTE", colours)] + (transparent.isEmpty ? [] : [("tRNS", transparent)])
    }

    /// libpng's channel count (0 for indices) and `image`'s pixels in this layout. A colour missing from the palette
    /// (which the source's guarantee rules out) takes entry 0.
    func pixels(of image: RGBAImage) -> (channels: Int32, bytes: [UInt8], entries: [UInt8]) {
        let count = image.width * image.height
        switch self {
        case .rgba:
            return (4, image.pixels, [])
        case .rgb:
            var out = [UInt8](repeating: 0, count: count * 3)
            image.pixels.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    (out[i * 3], out[i * 3 + 1], out[i * 3 + 2]) = (p[i * 4], p[i * 4 + 1], p[i * 4 + 2])
                }
            }
            return (3, out, [])
        case .palette(let entries):
            let index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1, UInt8($0)) })
            var out = [UInt8](repeating: 0, count: count)
            image.pixels.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    let key =
                        UInt32(p[i * 4]) << 24 | UInt32(p[i * 4 + 1]) << 16 | UInt32(p[i * 4 + 2]) << 8
                        | UInt32(p[i * 4 + 3])
                    out[i] = index[key] ?? 0
                }
            }
            let rgba = entries.flatMap {
                [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)]
            }
            return (0, out, rgba)
        }
    }
}
