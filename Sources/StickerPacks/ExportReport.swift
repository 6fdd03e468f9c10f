/// What an export did, for the person who runs it and for tools: each pack and its stickers with their bytes and PSNR,
/// every sticker refused and why, and what was fitted or split to meet the platform's rules.
public struct ExportReport: Codable, Sendable, Equatable {
    public var platform: String
    public var packs: [Pack] = []
    public var refused: [Refusal] = []
    /// What the export did to whole groups (split, skipped).
    public var notes: [String] = []

    public struct Pack: Codable, Sendable, Equatable {
        /// The folder the pack's files are in.
        public var folder: String
        public var title: String
        public var animated: Bool
        public var stickers: [Sticker]
        public var notes: [String] = []
    }

    public struct Sticker: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var file: String
        public var bytes: Int
        public var width: Int
        public var height: Int
        public var frames: Int
        /// dB against the source placed the same way; nil for a lossless file (identical pictures).
        public var psnr: Double?
        /// The lossy WebP quality; nil for a lossless file.
        public var quality: Float?
        public var notes: [String] = []
    }

    public struct Refusal: Codable, Sendable, Equatable {
        public var group: String
        /// Nil when the whole group is refused.
        public var sticker: String?
        public var name: String?
        public var reason: String
    }

    public init(platform: String) {
        self.platform = platform
    }

    /// A few lines for a terminal: each pack, its stickers with bytes and PSNR, each refusal with its reason.
    public var summary: String {
        var lines: [String] = []
        for pack in packs {
            lines.append(
                "\(pack.folder): \(pack.title), \(pack.stickers.count) \(pack.animated ? "animated " : "")stickers")
            for note in pack.notes { lines.append("  \(note)") }
            for sticker in pack.stickers {
                let quality =
                    sticker.psnr.map {
                        "PSNR \(Int($0.rounded())) dB" + (sticker.quality.map { ", quality \(Int($0))" } ?? "")
                    } ?? "lossless"
                lines.append(
                    "  \(sticker.file)\t\(sticker.bytes) bytes\t\(sticker.width)x\(sticker.height)"
                        + (sticker.frames > 1 ? ", \(sticker.frames) frames" : "") + "\t\(quality)\t\(sticker.name)")
                for note in sticker.notes { lines.append("    \(note)") }
            }
        }
        for note in notes { lines.append(note) }
        for refusal in refused {
            lines.append(
                "Refused \(refusal.sticker.map { "\(refusal.name ?? $0) (\(refusal.group))" } ?? "group \(refusal.group)"): \(refusal.reason)"
            )
        }
        return lines.joined(separator: "\n")
    }
}
