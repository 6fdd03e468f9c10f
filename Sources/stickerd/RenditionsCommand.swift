import ArgumentParser
import Foundation
import StickerCatalog
import StickerImage

struct RenditionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "renditions",
        abstract: "Make sticker renditions: rebuild them all, or try them on files.",
        subcommands: [Render.self])

    /// Renditions of files, written to a folder, with the time each step took: for the benchmark and for a look.
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate FILEs and write their renditions to a folder, printing sizes and timings.",
            shouldDisplay: false)

        @Option(help: "Folder to write the renditions into (not written when absent).")
        var output: String?

        @Option(help: "Render each file this many times and print the mean time (benchmarking).")
        var repeatCount = 1

        @Argument(help: "PNG or APNG stickers.")
        var files: [String]

        func run() throws {
            let validator = StickerValidator()
            for path in files {
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                let clock = ContinuousClock()
                var made: [Rendition] = []
                var validation = Duration.zero
                let total = try clock.measure {
                    for _ in 0..<repeatCount {
                        validation += clock.measure { _ = try? validator.validate(bytes) }
                        made = try validator.validateRendering(bytes).1
                    }
                }
                let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                print(String(format: "%@: validate alone %.1f ms; validate and render %.1f ms (mean of %d)", name,
                             milliseconds(validation) / Double(repeatCount), milliseconds(total - validation) / Double(repeatCount), repeatCount))
                for rendition in made {
                    print("  \(rendition.edge)\(rendition.still ? " still" : "")\t\(rendition.width)x\(rendition.height)\t\(rendition.bytes.count) bytes"
                        + (rendition.isOriginal ? " (original)" : ""))
                    if let output {
                        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                        try Data(rendition.bytes).write(to: URL(fileURLWithPath: "\(output)/\(name)-\(rendition.edge)\(rendition.still ? "-still" : "").png"))
                    }
                }
            }
        }

        func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
    }
}
