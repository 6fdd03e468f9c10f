import CatalogServices
import Foundation
import TestSupport
import Testing

/// `ZipStream` read back by another implementation (Python's zipfile, which checks every CRC): classic records, and
/// Zip64 ones once the bounds are passed (lowered here, so a test need not write 4 GiB).
@Suite struct ZipStreamTests {
    static let files: [(String, [UInt8])] = [
        ("contents.json", Array(#"{"packs":[]}"#.utf8)), ("chewy/tray.png", Array(repeating: 7, count: 5000)),
        ("chewy/1.webp", (0..<70_000).map { UInt8($0 % 251) }), ("report.json", []), ("ünïcode/ok.txt", [1]),
    ]

    static func zip(limits: ZipStream.Limits = ZipStream.Limits()) -> [UInt8] {
        var zip = ZipStream(limits: limits)
        var bytes: [UInt8] = []
        for (path, content) in files { bytes += zip.entry(path: path, bytes: content) }
        bytes += zip.finish()
        #expect(zip.offset == UInt64(bytes.count))
        return bytes
    }

    @Test("Entries written one after another make a zip another reader takes, byte for byte")
    func classic() throws {
        let (entries, zip64) = try ZipReader.read(Self.zip())
        #expect(!zip64)
        #expect(entries == Dictionary(uniqueKeysWithValues: Self.files))
        #expect(Self.zip() == Self.zip())  // the same files, the same bytes
    }

    @Test("Past the classic bounds (offsets, entry count) the zip has Zip64 records another reader takes")
    func zip64() throws {
        for limits in [
            ZipStream.Limits(offset: 6000, entries: 0xFFFF), ZipStream.Limits(offset: 0xFFFF_FFFF, entries: 3),
        ] {
            let (entries, zip64) = try ZipReader.read(Self.zip(limits: limits))
            #expect(zip64)
            #expect(entries == Dictionary(uniqueKeysWithValues: Self.files))
        }
    }
}
