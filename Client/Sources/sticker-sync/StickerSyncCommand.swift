import ArgumentParser
import Foundation
import Logging
import StickerCatalogClient

/// `sticker-sync`: what a sticker app does, from a terminal.
struct StickerSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sticker-sync",
        abstract: "Keep a folder in sync with a StickerCatalog service, as a sticker app does.",
        discussion: """
            The folder gets catalog.json (the manifest as synced, replaced in one rename) and files/<sha256>.png (.webp with --format webp), each \
            checked against its digest before it is kept. The first sync reads the whole manifest; later ones read the \
            change feed. With --watch it stays connected to /v1/events and syncs on every change, printing one line \
            per change. Example, from the repository's root:
              swift run --package-path Client sticker-sync http://127.0.0.1:8080 ./stickers --filter chocoholic --size small --scale 2 --watch

            Library mode, for catalogs too large to keep whole: --install GROUP (repeatable) installs groups and keeps \
            them in sync (library.json, files/), --uninstall GROUP removes one, --index walks the group index and \
            caches its covers (cache/files/, within --cache-mib); a run with neither syncs the installed groups when \
            the folder is a library. Example, from the repository's root:
              swift run --package-path Client sticker-sync http://127.0.0.1:8080 ./library --install chewy --install crunchy --index
            """)

    @Argument(help: "The service's base URL.")
    var service: String

    @Argument(help: "The folder to sync into (created if missing).")
    var folder: String

    @Option(help: "A filter the service defines, such as chocoholic.") var filter: String?
    @Option(help: "Extra required flags, comma-separated.") var flags: String?
    @Option(help: "Texts in this language (fr, pt-BR).") var locale: String?
    @Option(help: "small, medium or large (default: each group's own).") var size: StickerSize?
    @Option(help: "Display scale: 1, 2 or 3 (default 3).") var scale: DisplayScale?
    @Option(
        help:
            "apng: PNG, animated where the sticker moves (default); png: still pictures only; webp: WebP, animated where it moves."
    ) var format: StickerFormat?
    @Option(help: "Downloads at once.") var concurrency = 8
    @Option(help: "The largest image believed, in MiB; a manifest naming a larger one has it refused.")
    var largestImageMib = 5.0
    @Option(help: "Hours a file no longer named stays on disk.") var purgeGraceHours = 24.0
    @Flag(help: "Stay connected and sync on every change (Ctrl-C to stop).") var watch = false
    @Option(help: "Library mode: install this group and keep it in sync (repeatable).") var install: [String] = []
    @Option(help: "Library mode: remove this installed group (repeatable).") var uninstall: [String] = []
    @Flag(help: "Library mode: walk the group index and cache its covers.") var index = false
    @Option(help: "Library mode: MiB of previews and covers kept beside the installed groups.") var cacheMib = 100.0
    @Flag(help: "Log what the library does (requests retried, files that failed) on standard error.") var verbose =
        false

    /// Library mode: asked for, or a folder that is a library already.
    var libraryMode: Bool {
        !install.isEmpty || !uninstall.isEmpty || index
            || FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).appending(path: "library.json").path)
    }

    func validate() throws {
        guard !(watch && (!install.isEmpty || !uninstall.isEmpty || index)) else {
            throw ValidationError(
                "--watch keeps a whole catalog in sync; library mode (--install, --index) does not take it")
        }
        guard cacheMib >= 0, cacheMib <= 1_048_576 else {
            throw ValidationError("--cache-mib must be within 0 and 1048576")
        }
        guard let url = URL(string: service), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("SERVICE must be an http or https URL, such as http://127.0.0.1:8080")
        }
        guard concurrency >= 1, purgeGraceHours >= 0, largestImageMib > 0, largestImageMib <= 4096 else {
            throw ValidationError(
                "--concurrency must be at least 1, --purge-grace-hours at least 0, --largest-image-mib within 0 and 4096"
            )
        }
    }

    func run() async throws {
        let view = CatalogView(
            filter: filter, flags: Set(flags?.split(separator: ",").map(String.init) ?? []),
            locale: locale.map(Locale.init(identifier:)), size: size, scale: scale, format: format)
        var options = SyncOptions()
        (options.concurrency, options.purgeGrace) = (concurrency, purgeGraceHours * 3600)
        options.largestImage = Int(largestImageMib * 1_048_576)
        let token = ProcessInfo.processInfo.environment["STICKER_USER_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var logger =
            verbose ? Logger(label: "sticker-sync") { StreamLogHandler.standardError(label: $0) } : StickerSync.silent
        logger.logLevel = .debug
        if libraryMode {
            options.cacheBudget = Int(cacheMib * 1_048_576)
            let library = StickerLibrary(
                service: URL(string: service)!, folder: LocalCatalog(directory: URL(fileURLWithPath: folder)),
                view: view, credentials: token.map(Credentials.token), options: options, logger: logger)
            do { try await runLibrary(library) } catch {
                Self.warn(error)
                throw ExitCode.failure
            }
            return
        }
        let sync = StickerSync(
            service: URL(string: service)!, folder: LocalCatalog(directory: URL(fileURLWithPath: folder)), view: view,
            credentials: token.map(Credentials.token), options: options, logger: logger)
        let bar = ProgressBar(terminal: isatty(STDERR_FILENO) == 1)
        let drawing = Task { for await status in sync.statuses { bar.show(status) } }
        defer { drawing.cancel() }
        if watch {
            await sync.follow(
                onSync: {
                    bar.clear()
                    Self.say(Self.line($0))
                },
                onError: {
                    bar.clear()
                    Self.warn($0)
                })
        } else {
            let result: Result<StickerSync.Report, any Error>
            do { result = .success(try await sync.sync()) } catch { result = .failure(error) }
            // The bar's last redraw lands before the line, never after it.
            drawing.cancel()
            await drawing.value
            bar.clear()
            switch result {
            case .success(let report): Self.say(Self.line(report))
            case .failure(let error):
                Self.warn(error)
                throw ExitCode.failure
            }
        }
    }

    /// One line per sync: what changed and what moved.
    static func line(_ report: StickerSync.Report) -> String {
        let time = ISO8601DateFormatter().string(from: Date())
        guard report.changed || report.filesDownloaded > 0 || report.filesRemoved > 0 || !report.failedFiles.isEmpty
        else { return "\(time) revision \(report.revision): up to date" }
        var parts = ["\(time) revision \(report.revision) (\(report.incremental ? "change feed" : "whole manifest"))"]
        if !report.changedGroups.isEmpty { parts.append("changed: \(list(report.changedGroups))") }
        if !report.removedGroups.isEmpty { parts.append("removed: \(list(report.removedGroups))") }
        parts.append(
            "\(report.filesDownloaded) files (\(report.bytesDownloaded) bytes) fetched, \(report.filesRemoved) purged")
        if !report.failedFiles.isEmpty {
            parts.append("\(report.failedFiles.count) files failed (tried again next sync)")
        }
        return parts.joined(separator: "; ")
    }

    /// At most eight ids, then how many more.
    static func list(_ ids: [String]) -> String {
        ids.count <= 8
            ? ids.joined(separator: ", ") : ids.prefix(8).joined(separator: ", ") + " and \(ids.count - 8) more"
    }

    /// A line on standard output, written at once (also into a pipe or a file, where print would buffer it).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func warn(_ error: any Error) {
        FileHandle.standardError.write(Data("sticker-sync: \(error)\n".utf8))
    }
}

extension StickerSize: ExpressibleByArgument {}
extension StickerFormat: ExpressibleByArgument {}
extension DisplayScale: ExpressibleByArgument {}
