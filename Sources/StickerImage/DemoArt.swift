import Foundation

/// Draws the nine candy stickers of the demo catalog: 408 x 408 (medium @3x), transparent, each labelled.
public enum DemoArt {
    /// The names DemoArt can draw.
    public static let names = [
        "Caramel", "GummiBear", "SourCandy", "ChocolateBar", "ChocolateChip", "DarkChocolate",
        "CandyCane", "JawBreaker", "Lollipop",
    ]

    /// The sticker `name` as PNG bytes, or nil for a name it cannot draw.
    public static func png(_ name: String) -> [UInt8]? {
        rendered[name]
    }

    /// Every sticker drawn once per process, on first use: the art never changes.
    private static let rendered: [String: [UInt8]] = Dictionary(
        uniqueKeysWithValues: names.map { ($0, PNGCodec.encode(draw($0).image)) })

    /// The sticker `name` drawn on a transparent canvas, with its name underneath.
    static func draw(_ name: String) -> Canvas {
        var c = Canvas(width: 408, height: 408)
        let all = (0.0, 0.0, 408.0, 408.0)
        func fill(_ color: RGBA, _ inside: @escaping (Double, Double) -> Bool) {
            c.paint(all) { x, y in inside(x, y) ? color : nil }
        }
        switch name {
        case "Caramel":
            fill(RGBA(hex: 0xE8C07A), Shape.stroke(60, 170, 348, 170, width: 60))
            fill(RGBA(hex: 0xB8742A), Shape.roundedRect(110, 80, 298, 260, radius: 36))
            fill(RGBA(hex: 0xD9984A), Shape.roundedRect(126, 92, 282, 132, radius: 18))
        case "GummiBear":
            let red = RGBA(hex: 0xE0303A, alpha: 0.9)
            for (cx, cy, r) in [
                (150.0, 70.0, 26.0), (258, 70, 26), (204, 110, 62), (204, 215, 78),
                (130, 180, 26), (278, 180, 26), (150, 285, 30), (258, 285, 30),
            ] {
                fill(red, Shape.circle(cx, cy, r))
            }
            fill(RGBA(hex: 0x40060A), Shape.circle(180, 100, 8))
            fill(RGBA(hex: 0x40060A), Shape.circle(228, 100, 8))
        case "SourCandy":
            fill(RGBA(hex: 0x7BD13A), Shape.circle(204, 170, 130))
            fill(RGBA(hex: 0xC8F07A), Shape.circle(204, 170, 100))
            for i in 0..<40 {
                let (a, r) = (Double(i) * 2.4, 20 + Double(i * 37 % 100))
                fill(RGBA(1, 1, 1, 0.9), Shape.circle(204 + cos(a) * r, 170 + sin(a) * r, 5))
            }
        case "ChocolateBar", "DarkChocolate":
            let dark = name == "DarkChocolate"
            let (body, groove) =
                dark ? (RGBA(hex: 0x2B1409), RGBA(hex: 0x170903)) : (RGBA(hex: 0x7B4421), RGBA(hex: 0x5A2E14))
            fill(body, Shape.roundedRect(104, 30, 304, 310, radius: 14))
            c.paint(all) { x, y in
                guard x > 110, x < 298, y > 36, y < 304 else { return nil }
                return (x - 104).truncatingRemainder(dividingBy: 66.7) < 5
                    || (y - 30).truncatingRemainder(dividingBy: 70) < 5 ? groove : nil
            }
            if !dark { fill(RGBA(hex: 0xC8102E), Shape.roundedRect(96, 200, 312, 318, radius: 6)) }
        case "ChocolateChip":
            fill(RGBA(hex: 0xD9A45B), Shape.circle(204, 170, 140))
            for (cx, cy) in [
                (150.0, 110.0), (240, 90), (280, 170), (200, 170), (130, 210), (230, 245), (170, 270), (300, 240),
            ] {
                fill(RGBA(hex: 0x3B1E0E), Shape.ellipse(cx, cy, 16, 12))
            }
        case "CandyCane":
            c.paint(all) { x, y in
                let hook =
                    Shape.stroke(240, 110, 240, 320, width: 48)(x, y)
                    || (y <= 110 && abs(hypot(x - 180, y - 110) - 60) <= 24)
                    || Shape.stroke(120, 110, 120, 140, width: 48)(x, y)
                guard hook else { return nil }
                return (x + y).truncatingRemainder(dividingBy: 56) < 28 ? RGBA(hex: 0xD7141A) : RGBA(hex: 0xFFFFFF)
            }
        case "JawBreaker":
            let rings: [UInt32] = [0x3B82F6, 0xF472B6, 0xFACC15, 0x22C55E, 0xF97316, 0xA855F7, 0xFFFFFF]
            for (i, hex) in rings.enumerated() {
                fill(RGBA(hex: hex), Shape.circle(204, 170, 140 - Double(i) * 20))
            }
        default:  // Lollipop
            fill(RGBA(hex: 0xF5F0E6), Shape.stroke(204, 170, 204, 330, width: 18))
            c.paint(all) { x, y in
                let (dx, dy) = (x - 204, y - 140)
                let r = hypot(dx, dy)
                guard r <= 110 else { return nil }
                let band = (atan2(dy, dx) / (2 * .pi) * 60 + r / 8).truncatingRemainder(dividingBy: 6)
                return abs(band) < 3 ? RGBA(hex: 0xFF3E8A) : RGBA(hex: 0xFFD23F)
            }
        }
        c.paint((0, 340, 408, 400)) { x, y in
            Shape.roundedRect(14, 346, 394, 394, radius: 24)(x, y) ? RGBA(1, 1, 1, 0.92) : nil
        }
        c.label(spaced(name), centerX: 204, top: 356, scale: 4, color: RGBA(hex: 0x2A1A10))
        return c
    }

    /// "ChocolateChip" becomes "CHOCOLATE CHIP".
    static func spaced(_ name: String) -> String {
        var out = ""
        for ch in name {
            if ch.isUppercase, !out.isEmpty { out.append(" ") }
            out.append(ch)
        }
        return out.uppercased()
    }
}
