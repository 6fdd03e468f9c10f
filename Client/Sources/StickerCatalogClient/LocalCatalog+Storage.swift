import Foundation

extension LocalCatalog {
    /// The catalog folder `name` in the App Group container `group`, which an app and its iMessage or keyboard
    /// extension both read (the group must be in both targets' entitlements).
    /// - Throws: `StickerClientError.storage` when this process is not entitled to the group.
    public static func appGroup(_ group: String, folder name: String = "Stickers") throws -> LocalCatalog {
        #if canImport(Darwin)
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
                throw StickerClientError.storage(
                    "no App Group container \(group): is it in this target's entitlements?", errno: nil)
            }
            return LocalCatalog(directory: container.appending(path: name, directoryHint: .isDirectory))
        #else
            throw StickerClientError.storage("App Group containers exist on Apple platforms only", errno: nil)
        #endif
    }

    /// Keeps the folder out of iCloud and device backups: everything in it comes back from the service. Does nothing
    /// where there are no such backups (Linux).
    func excludeFromBackup() {
        #if canImport(Darwin)
            var folder = directory
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? folder.setResourceValues(values)
        #endif
    }
}
