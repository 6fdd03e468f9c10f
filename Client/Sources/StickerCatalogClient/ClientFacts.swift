import Foundation
import HTTPTypes

/// What the app states of itself so the service can show groups meant for some platforms, app versions or a share of
/// installations (the service's audiences): `Sticker-Platform`, `Sticker-App-Version` and `Sticker-Installation` on
/// every request that reads the catalog. None of it is a user's identity: the installation id is random, made once
/// per folder, and never derived from a user. It is not a security boundary either (any client can say anything); it
/// lets the service roll a group out. (An `NSLock`, not `Mutex`: the package's floor is iOS 16, and `Mutex` is iOS 18.)
final class ClientFacts: @unchecked Sendable {
    let platform: String?
    let appVersion: String?
    /// Whether the installation id is sent (`SyncOptions.sendsInstallationID`).
    let sendsInstallation: Bool
    private let folder: URL
    private let lock = NSLock()
    private var installation: String?
    /// Whether the folder's id was removed (`forgetInstallation`).
    private var forgotten = false

    /// Operations that answer with the catalog as this client sees it. The HEADs too: their ETags must be the GETs'.
    static let operations: Set<String> = [
        "getManifest", "headManifest", "getManifestChanges", "headManifestChanges", "getEvents", "headEvents",
        "getGroupIndex", "headGroupIndex", "getGroup", "headGroup", "search", "headSearch", "trending", "headTrending",
    ]
    static let platformHeader = HTTPField.Name("Sticker-Platform")!
    static let versionHeader = HTTPField.Name("Sticker-App-Version")!
    static let installationHeader = HTTPField.Name("Sticker-Installation")!
    /// The file in the synced folder that keeps the installation id.
    static let fileName = "installation-id"

    /// `platform` and `appVersion` as the options give them; either is left out when malformed (the service would
    /// refuse the request over it).
    init(folder: URL, platform: String?, appVersion: String?, sendsInstallation: Bool = true) {
        (self.folder, self.sendsInstallation) = (folder, sendsInstallation)
        self.platform = platform.flatMap { Self.isPlatform($0) ? $0 : nil }
        self.appVersion = appVersion.flatMap { Self.isVersion($0) ? $0 : nil }
    }

    /// Adds the facts to `request` when `operationID` reads the catalog.
    func stamp(_ request: inout HTTPRequest, operationID: String) {
        guard Self.operations.contains(operationID) else { return }
        request.headerFields[Self.platformHeader] = platform
        request.headerFields[Self.versionHeader] = appVersion
        request.headerFields[Self.installationHeader] = sendsInstallation ? installationID() : forgetInstallation()
    }

    /// Removes the folder's installation id, once: an app that turned it off keeps none. Nil, the header to send.
    private func forgetInstallation() -> String? {
        lock.withLock {
            if !forgotten { unlink(folder.appending(path: Self.fileName).path) }
            forgotten = true
            return nil
        }
    }

    /// The folder's installation id: read once, made (a random UUID) and kept when there is none or it is not one.
    /// Two processes making one at once each use their own for this run; the last written is kept.
    func installationID() -> String {
        lock.withLock {
            if let installation { return installation }
            let file = folder.appending(path: Self.fileName)
            if let data = try? Data(contentsOf: file), data.count <= 64,
                let text = String(data: data, encoding: .utf8), Self.isInstallation(text)
            {
                installation = text
                return text
            }
            let made = UUID().uuidString.lowercased()
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Ordered, not flushed fully: a power loss that takes it back only makes another.
            try? LocalCatalog.replace(folder.path, Self.fileName, with: Data(made.utf8), durability: .ordered)
            installation = made
            return made
        }
    }

    /// The platform this library was built for.
    static var currentPlatform: String {
        #if os(iOS)
            "ios"
        #elseif os(macOS)
            "macos"
        #elseif os(watchOS)
            "watchos"
        #elseif os(tvOS)
            "tvos"
        #elseif os(visionOS)
            "visionos"
        #elseif os(Android)
            "android"
        #elseif os(Linux)
            "linux"
        #else
            "other"
        #endif
    }

    /// The app's `CFBundleShortVersionString` when it is a version the service compares (`2.3.1`).
    static var bundleVersion: String? {
        (Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String).flatMap {
            isVersion($0) ? $0 : nil
        }
    }

    static func isPlatform(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 32, first >= 97, first <= 122 else { return false }
        return name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }

    static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count)
            && parts.allSatisfy { (1...6).contains($0.utf8.count) && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    }

    static func isInstallation(_ id: String) -> Bool {
        (8...64).contains(id.utf8.count)
            && id.utf8.allSatisfy {
                ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95
            }
    }
}
