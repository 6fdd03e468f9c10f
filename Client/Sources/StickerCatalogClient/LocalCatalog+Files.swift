import Crypto
import Foundation

/// The images kept in `files/`, and what killed processes left behind.
extension LocalCatalog {
    /// Whether the file of `asset` is kept with its byte count (its digest was checked when it was kept).
    func has(_ asset: AssetLink) -> Bool {
        var info = stat()
        return Self.isDigest(asset.sha256) && lstat(filePath(for: asset), &info) == 0
            && (info.st_mode & S_IFMT) == S_IFREG
            && info.st_size == off_t(asset.bytes)  // not Int(st_size): it traps past 2 GiB where Int is 32-bit
    }

    /// Whether the file of `asset` is kept and its bytes hash to its digest; a file that does not is removed. For
    /// files no committed catalog names yet (a sync killed, or a power lost, after they were written and before the
    /// barrier that makes them durable): their name alone does not vouch for their bytes.
    func verified(_ asset: AssetLink) -> Bool {
        guard has(asset) else { return false }
        let path = filePath(for: asset)
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            hash.update(data: buffer[..<count])
            total += count
        }
        guard total == asset.bytes, Downloads.hex(hash.finalize()) == asset.sha256 else {
            unlink(path)
            return false
        }
        return true
    }

    /// The names in the files folder (one directory read: a first sync asks about thousands of files, most absent).
    func fileNames() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: filesPath)) ?? [])
    }

    /// Digests of the files kept; with `partsBefore`, leftovers of downloads a killed process never finished, last
    /// written before then, are removed (a newer one may be another process's download under way).
    func storedDigests(removingPartsBefore partsBefore: Date? = nil) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: filesDirectory.path)) ?? []
        var digests = Set<String>()
        // Only names this library writes: a file or link planted under another name is left alone.
        for name in names {
            if name.hasPrefix("."), name.hasSuffix(".part"), Self.isDigest(String(name.dropFirst().prefix(64))) {
                let path = filesDirectory.appending(path: name).path
                let written = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
                if let partsBefore, let written, written < partsBefore { unlink(path) }
            } else if let dot = name.lastIndex(of: "."),
                Self.fileExtensions.contains(String(name[name.index(after: dot)...])),
                Self.isDigest(String(name[..<dot]))
            {
                digests.insert(String(name[..<dot]))
            }
        }
        return digests
    }

    /// The files `replace` writes in the folder itself, whose temporary `.NAME.N.part` a killed process may leave.
    static let replacedNames: Set<String> = ["catalog.json", "cursor.json", UsageQueue.name, ClientFacts.fileName]

    /// Removes the folder's own leftovers of replacements a killed process never finished (`.catalog.json.N.part`),
    /// last written before `before` (a newer one may be another process's write under way).
    func removeLeftovers(before: Date) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".part") {
            let parts = name.dropFirst().dropLast(".part".count).split(separator: ".")
            guard parts.count >= 2, parts.last?.allSatisfy(\.isNumber) == true,
                Self.replacedNames.contains(parts.dropLast().joined(separator: "."))
            else { continue }
            let path = directory.appending(path: name).path
            let written = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            if let written, written < before { unlink(path) }
        }
    }

    /// Removes the kept file of `sha256` (unlink: a link is removed, never what it points to).
    func remove(sha256: String) {
        guard Self.isDigest(sha256) else { return }
        for ext in Self.fileExtensions { unlink(filesDirectory.appending(path: "\(sha256).\(ext)").path) }
    }
}
