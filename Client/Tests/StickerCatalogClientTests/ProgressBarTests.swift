import StickerCatalogClient
import Testing

@testable import sticker_sync

/// `sticker-sync`'s progress line.
@Suite struct ProgressBarTests {
    @Test("The bar fills by bytes and counts files and megabytes")
    func line() {
        // Setup
        let progress = SyncProgress(files: 2960, totalFiles: 10059, bytes: 3_100_000, totalBytes: 10_500_000)
        // Action
        let line = ProgressBar.line(progress)
        // Check
        #expect(line == "[#######.................]  29%  2960 of 10059 files  3.1 of 10.5 MB")
        #expect(
            ProgressBar.line(SyncProgress(files: 3, totalFiles: 3, bytes: 9, totalBytes: 9)).hasPrefix(
                "[########################] 100%"))
    }
}
