/// A straight (non-premultiplied) RGBA colour.
public struct RGBA: Sendable, Equatable {
    public var r, g, b, a: Double

    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        (self.r, self.g, self.b, self.a) = (r, g, b, a)
    }

    /// A colour from a 0xRRGGBB literal.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(Double(hex >> 16 & 0xFF) / 255, Double(hex >> 8 & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
    }
}

/// A small software rasteriser for the demo art: shapes are shaders, edges are 4x supersampled.
public struct Canvas: Sendable {
    public let width: Int
    public let height: Int
    private var pixels: [Double]

    /// A fully transparent canvas.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.pixels = [Double](repeating: 0, count: width * height * 4)
    }

    /// Paints `shader` (nil where the shape is absent) over the canvas inside `bounds`, source-over.
    public mutating func paint(
        _ bounds: (x0: Double, y0: Double, x1: Double, y1: Double), _ shader: (Double, Double) -> RGBA?
    ) {
        let offsets = [0.25, 0.75]
        for y in max(0, Int(bounds.y0))..<min(height, Int(bounds.y1.rounded(.up))) {
            for x in max(0, Int(bounds.x0))..<min(width, Int(bounds.x1.rounded(.up))) {
                var sum = RGBA(0, 0, 0, 0)
                for dy in offsets {
                    for dx in offsets {
                        guard let c = shader(Double(x) + dx, Double(y) + dy) else { continue }
                        sum = RGBA(sum.r + c.r * c.a / 4, sum.g + c.g * c.a / 4, sum.b + c.b * c.a / 4, sum.a + c.a / 4)
                    }
                }
                guard sum.a > 0 else { continue }
                let i = (y * width + x) * 4
                let keep = 1 - sum.a
                let alpha = sum.a + pixels[i + 3] * keep
                for (k, channel) in [sum.r, sum.g, sum.b].enumerated() {
                    pixels[i + k] = (channel + pixels[i + k] * pixels[i + 3] * keep) / alpha
                }
                pixels[i + 3] = alpha
            }
        }
    }

    /// The canvas as 8-bit RGBA.
    public var image: RGBAImage {
        RGBAImage(width: width, height: height, pixels: pixels.map { UInt8(max(0, min(255, ($0 * 255).rounded()))) })
    }
}

/// Shape tests used by the demo art.
public enum Shape {
    public static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> (Double, Double) -> Bool {
        { x, y in (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r }
    }

    public static func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> (Double, Double) -> Bool {
        { x, y in ((x - cx) / rx) * ((x - cx) / rx) + ((y - cy) / ry) * ((y - cy) / ry) <= 1 }
    }

    public static func roundedRect(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, radius: Double
    ) -> (Double, Double) -> Bool {
        { x, y in
            let dx = max(x0 + radius - x, 0, x - (x1 - radius))
            let dy = max(y0 + radius - y, 0, y - (y1 - radius))
            return x >= x0 && x <= x1 && y >= y0 && y <= y1 && dx * dx + dy * dy <= radius * radius
        }
    }

    /// A thick line from (ax, ay) to (bx, by) with round caps.
    public static func stroke(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, width: Double
    ) -> (Double, Double) -> Bool {
        { x, y in
            let (vx, vy) = (bx - ax, by - ay)
            let t = max(0, min(1, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)))
            let (px, py) = (ax + t * vx - x, ay + t * vy - y)
            return px * px + py * py <= width * width / 4
        }
    }
}
