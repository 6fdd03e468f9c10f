import Foundation
import StickerCatalogClient

/// A sync's progress on a terminal, redrawn in place at most ten times a second: a bar, files and bytes. Nothing
/// when standard error is not a terminal (a log gets the one line per sync instead).
final class ProgressBar: @unchecked Sendable {
    private let terminal: Bool
    private let lock = NSLock()
    private var drawn = ContinuousClock.Instant.now - .seconds(1)
    private var showing = false

    init(terminal: Bool) {
        self.terminal = terminal
    }

    func show(_ status: SyncStatus) {
        guard terminal, case .syncing(let progress) = status, progress.totalFiles > 0 else { return }
        lock.withLock {
            let now = ContinuousClock.now
            guard now - drawn >= .milliseconds(100) || progress.files == progress.totalFiles else { return }
            (drawn, showing) = (now, true)
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + Self.line(progress)).utf8))
        }
    }

    /// Removes the bar before a line is printed.
    func clear() {
        lock.withLock {
            guard showing else { return }
            showing = false
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        }
    }

    /// `[#######.............]  35%  3,512 of 10,059 files  12.4 of 35.2 MB`
    static func line(_ progress: SyncProgress, width: Int = 24) -> String {
        // `fraction` is within 0 and 1; clamped again, as a negative repeat count traps.
        let filled = min(max(Int((progress.fraction * Double(width)).rounded(.down)), 0), width)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = Int((progress.fraction * 100).rounded(.down))
        return "[\(bar)] \(String(percent).leftPadded(to: 3))%  \(progress.files) of \(progress.totalFiles) files  "
            + "\(megabytes(progress.bytes)) of \(megabytes(progress.totalBytes)) MB"
    }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = bytes / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(width - count, 0)) + self
    }
}
