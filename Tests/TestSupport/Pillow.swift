import Foundation

/// Pillow, an image library independent of this service's code (it reads WebP with libwebp and APNG with its own
/// PNG reader), as tests' second opinion on the files the service writes. `make test` installs it.
package enum Pillow {
    package static let available: Bool =
        (try? Command.run("/usr/bin/env", ["python3", "-c", "import PIL.WebPImagePlugin"]).0) == 0

    /// What Pillow reads of an image file.
    package struct Info: Decodable, Equatable {
        package var format: String
        package var width: Int
        package var height: Int
        package var frames: Int
        /// Each frame's duration in milliseconds (an APNG's as Pillow computes them, to the millisecond).
        package var durations: [Int]
        package var loop: Int?
        /// Whether any pixel is not fully opaque.
        package var transparent: Bool

        package init(
            format: String, width: Int, height: Int, frames: Int, durations: [Int], loop: Int? = nil, transparent: Bool
        ) {
            self.format = format
            self.width = width
            self.height = height
            self.frames = frames
            self.durations = durations
            self.loop = loop
            self.transparent = transparent
        }
    }

    package static let script = """
        import json, sys
        from PIL import Image
        out = []
        for path in sys.argv[1:]:
            im = Image.open(path)
            frames = getattr(im, "n_frames", 1)
            start = 1 if im.info.get("default_image") else 0
            durations, transparent = [], False
            for i in range(start, frames):
                im.seek(i); im.load()
                durations.append(round(im.info.get("duration", 0)))
                rgba = im.convert("RGBA")
                transparent = transparent or rgba.getextrema()[3][0] < 255
            out.append({"format": im.format, "width": im.width, "height": im.height, "frames": frames - start,
                        "durations": durations, "loop": im.info.get("loop"), "transparent": transparent})
        print(json.dumps(out))
        """

    /// Pillow's reading of each file.
    package static func read(_ files: [[UInt8]]) throws -> [Info] {
        let folder = FileManager.default.temporaryDirectory.appending(path: "pillow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = try files.enumerated().map { index, bytes in
            let path = folder.appending(path: "\(index)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let (status, output) = try Command.run("/usr/bin/env", ["python3", "-W", "ignore", "-c", script] + paths)
        guard status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: output]) }
        return try JSONDecoder().decode([Info].self, from: Data(output.utf8))
    }

    /// For each pair, the largest difference between the alpha channels of two images of one size, as Pillow reads
    /// them (one Python process for all of them).
    package static func alphaDifferences(_ pairs: [([UInt8], [UInt8])]) throws -> [Int] {
        let folder = FileManager.default.temporaryDirectory.appending(path: "pillow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, (a, b)) in pairs.enumerated() {
            for (side, bytes) in [("a", a), ("b", b)] {
                let path = folder.appending(path: "\(index)\(side)").path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
        }
        let (status, output) = try Command.run(
            "/usr/bin/env",
            [
                "python3", "-W", "ignore", "-c",
                """
                import sys
                from PIL import Image, ImageChops
                paths = sys.argv[1:]
                for a, b in zip(paths[::2], paths[1::2]):
                    a, b = (Image.open(p).convert("RGBA").getchannel("A") for p in (a, b))
                    assert a.size == b.size, (a.size, b.size)
                    print(ImageChops.difference(a, b).getextrema()[1])
                """,
            ] + paths)
        let differences = output.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard status == 0, differences.count == pairs.count else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: output])
        }
        return differences
    }
}
