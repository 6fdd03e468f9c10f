import Foundation

/// A zip read back by another implementation: Python's zipfile, which checks every entry's CRC.
package enum ZipReader {
    /// What zipfile made of a zip it refused: its output, the error included.
    package struct Refused: Error, CustomStringConvertible {
        package let description: String
    }

    /// Each entry's name and bytes, and whether the zip needed Zip64 records.
    package static func read(_ zip: [UInt8]) throws -> (entries: [String: [UInt8]], zip64: Bool) {
        let path = FileManager.default.temporaryDirectory.appending(path: "zip-\(UUID().uuidString).zip")
        try Data(zip).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let (status, output) = try Command.run(
            "/usr/bin/env",
            [
                "python3", "-W", "ignore", "-c",
                """
                import base64, json, sys, zipfile
                with zipfile.ZipFile(sys.argv[1]) as z:
                    assert z.testzip() is None
                    data = open(sys.argv[1], 'rb').read()
                    print(json.dumps({'zip64': b'PK\\x06\\x06' in data,
                        'entries': {i.filename: base64.b64encode(z.read(i)).decode() for i in z.infolist()}}))
                """, path.path,
            ])
        guard status == 0, let json = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let entries = json["entries"] as? [String: String]
        else { throw Refused(description: output) }
        return (entries.mapValues { Array(Data(base64Encoded: $0) ?? Data()) }, json["zip64"] as? Bool ?? false)
    }

    /// Each entry's name and bytes.
    package static func entries(_ zip: [UInt8]) throws -> [String: [UInt8]] {
        try read(zip).entries
    }
}
