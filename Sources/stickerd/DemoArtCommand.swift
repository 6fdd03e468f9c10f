import ArgumentParser
import Foundation
import StickerImage

/// Writes the demo stickers as files: seeds for `make fuzz` and inputs for the benchmarks.
struct DemoArtCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-art",
        abstract: "Write the nine demo stickers (408 x 408 PNG) and a 618 x 618, 30-frame APNG to a folder.")

    @Argument(help: "The folder to write into (created if missing).")
    var folder: String

    @Option(
        help:
            "Also write this many distinct 30-frame APNGs (Anim-01.png...), each demo sticker sliding at 618, 560, 512 or 460 px."
    )
    var animations = 0

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in DemoArt.names {
            try Data(DemoArt.png(name)!).write(to: URL(fileURLWithPath: "\(folder)/\(name).png"))
        }
        try Data(DemoArt.animation("Lollipop")!).write(
            to: URL(fileURLWithPath: "\(folder)/Lollipop-618x618-30frames.png"))
        for index in 0..<animations {
            let (name, side) = (
                DemoArt.names[index % DemoArt.names.count], [618, 560, 512, 460][index / DemoArt.names.count % 4]
            )
            try Data(DemoArt.animation(name, side: side)!).write(
                to: URL(fileURLWithPath: String(format: "%@/Anim-%02d.png", folder, index + 1)))
        }
        print("Wrote \(DemoArt.names.count + 1 + animations) stickers to \(folder)")
    }
}
