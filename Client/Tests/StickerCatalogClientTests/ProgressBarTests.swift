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

extension ProgressBarTests {
    @Test("Counts past their total (a bundle cut, a server that lies) draw a full bar; none traps")
    func pastTheTotal() {
        for progress in [
            SyncProgress(files: 5, totalFiles: 3, bytes: 900, totalBytes: 100),
            SyncProgress(files: 1, totalFiles: 3, bytes: -50, totalBytes: 100),
            SyncProgress(files: 0, totalFiles: 0, bytes: 10, totalBytes: 0),
        ] {
            let line = ProgressBar.line(progress)
            #expect(line.hasPrefix("[") && line.count > 30, "\(line)")
        }
        #expect(ProgressBar.line(SyncProgress(files: 5, totalFiles: 3, bytes: 900, totalBytes: 100)).contains("100%"))
    }
}
