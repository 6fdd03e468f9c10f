import ArgumentParser
import Foundation
import StickerImage

/// `stickerd renditions webp`: a PNG's pixels as the WebP rendition encoder writes them, timed in process: what
/// `make bench` puts beside `vips webpsave` and `cwebp` on the same pixels.
struct WebPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webp",
        abstract: "Encode PNG files' pixels as WebP renditions are encoded, printing the mean time and the bytes.",
        shouldDisplay: false)

    @Option(help: "Lossy quality, 0 to 100 (renditions use 80); alpha is always lossless.") var quality: Float = 80
    @Option(help: "Encode each file this many times and print the mean time.") var repeatCount = 1
    @Option(help: "Folder to write the WebPs into (not written when absent).") var output: String?
    @Argument(help: "PNG files.") var files: [String]

    func run() throws {
        for path in files {
            let png = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let clock = ContinuousClock()
            var webp: [UInt8] = []
            let elapsed = try clock.measure {
                for _ in 0..<repeatCount {
                    webp = try WebPCodec.encode(try PNGCodec.decode(png, maxPixels: 1 << 24), .init(quality: quality))
                }
            }
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let ms =
                (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
                / Double(repeatCount)
            print(
                String(
                    format: "%@: decode and encode %.2f ms (mean of %d); %d bytes", name, ms, repeatCount, webp.count))
            if let output {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                try Data(webp).write(to: URL(fileURLWithPath: "\(output)/\(name).webp"))
            }
        }
    }
}
