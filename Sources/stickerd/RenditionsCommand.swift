import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation
import StickerImage

struct RenditionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "renditions",
        abstract: "Make sticker renditions again, after a change to how they are made.",
        subcommands: [Rebuild.self, Render.self, WebPCommand.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the renditions of every sticker image again, a batch at a time.",
            discussion: """
                Images whose renditions were made by this version of stickerd (or by an upload since) are skipped, so an \
                interrupted rebuild resumes where it stopped. Each image's renditions replace the old ones in one \
                transaction; the old ones are left to `stickerd gc`. Shows a progress bar on a terminal, a line per batch \
                otherwise.
                """)

        @Option(help: "Images read from the database at a time.")
        var batch = 20

        @OptionGroup(title: "Animated stickers") var limits: LimitOptions

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard batch >= 1 else { throw ValidationError("--batch must be at least 1") }
        }

        func run() async throws {
            let logger = try database.logger("stickerd.renditions")
            let (rules, batch) = (limits.rules, batch)
            let (rebuilt, failed) = try await database.withPool(logger: logger) { pool in
                try await Migrator().migrate(pool, logger: logger)
                let catalog = PostgresCatalog(pool: pool, revision: CatalogRevision(), logger: logger)
                let total = try await PostgresMaintenance(store: catalog.store).countImagesNeedingRenditions(
                    version: Renditions.version)
                var progress = Progress(total: total, unit: "images")
                var (after, rebuilt, failed) = ("", 0, 0)
                while true {
                    let images = try await PostgresMaintenance(store: catalog.store).imagesNeedingRenditions(
                        version: Renditions.version, after: after, limit: batch)
                    guard let last = images.last else { break }
                    for image in images {
                        do {
                            let renditions = try Renditions.make(
                                try StickerSource(image.bytes, rules: rules), stored: image.bytes, rules: rules)
                            try await PostgresMaintenance(store: catalog.store).replaceRenditions(
                                source: image.sha256, renditions)
                            rebuilt += 1
                        } catch {
                            failed += 1
                            logger.error(
                                "Could not make renditions",
                                metadata: ["sha256": "\(image.sha256)", "error": "\(error)"])
                        }
                        progress.advance()
                    }
                    progress.batchDone()
                    after = last.sha256
                }
                progress.finish()
                return (rebuilt, failed)
            }
            print(
                "Rebuilt the renditions of \(rebuilt) images" + (failed > 0 ? "; \(failed) failed (see the log)" : "")
                    + ".")
            if failed > 0 { throw ExitCode(1) }
        }
    }

    /// Renditions of files, written to a folder, with the time each step took: for the benchmark and for a look.
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate FILEs and write their renditions to a folder, printing sizes and timings.",
            shouldDisplay: false)

        @Option(help: "Folder to write the renditions into (not written when absent).")
        var output: String?

        @Option(help: "Render each file this many times and print the mean time (benchmarking).")
        var repeatCount = 1

        @Flag(
            help: ArgumentHelp(
                "Each rendition at its fitted size, before a larger picture that takes fewer bytes stands in for it.",
                visibility: .hidden))
        var fitted = false

        @Argument(help: "PNG, APNG, WebP, GIF or JPEG stickers.")
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
                        if fitted {
                            let source = try StickerSource(bytes, rules: validator.rules)
                            made = try Renditions.exact(source, stored: source.strippedBytes, rules: validator.rules)
                        }
                    }
                }
                let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                print(
                    String(
                        format: "%@: validate alone %.1f ms; validate and render %.1f ms (mean of %d)", name,
                        milliseconds(validation) / Double(repeatCount),
                        milliseconds(total - validation) / Double(repeatCount), repeatCount))
                for rendition in made {
                    print(
                        "  \(rendition.format.fileExtension) \(rendition.edge)\(rendition.still ? " still" : "")\t\(rendition.width)x\(rendition.height)\t\(rendition.bytes.count) bytes"
                            + (rendition.isOriginal ? " (original)" : ""))
                    if let output {
                        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                        try Data(rendition.bytes).write(
                            to: URL(
                                fileURLWithPath:
                                    "\(output)/\(name)-\(rendition.edge)\(rendition.still ? "-still" : "").\(rendition.format.fileExtension)"
                            ))
                    }
                }
            }
        }

        func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
    }
}
