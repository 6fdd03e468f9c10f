import Foundation
import Testing

@testable import StickerCatalogClient

/// The package's privacy manifest declares what it collects and every required-reason API its code calls, and the
/// installation id can be turned off.
@Suite struct PrivacyTests {
    /// Required-reason API categories (Apple's list), and the calls in this package's sources that belong to each.
    static let categories: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            #"\bstat\("#, #"\blstat\("#, #"\bfstat\("#, #"\bgetattrlist"#, "modificationDate", "creationDate",
            "contentModificationDate",
        ],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time"],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["volumeAvailableCapacity", #"\bstatfs\("#, "systemFreeSize"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults"],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
    ]

    /// The manifest as the package's resources carry it.
    static func manifest() throws -> [String: Any] {
        let url = try #require(Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy"))
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        return try #require(plist as? [String: Any])
    }

    @Test("Every required-reason API category the sources call is declared, with a reason; nothing tracks")
    func declared() throws {
        // Setup: the manifest, and the client's sources (this file's package).
        let manifest = try Self.manifest()
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Sources/StickerCatalogClient")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        let code = try files.map { try String(contentsOf: sources.appending(path: $0), encoding: .utf8) }
            .joined(separator: "\n")
        // Action
        let used = Self.categories.filter { _, calls in
            calls.contains { code.range(of: $0, options: .regularExpression) != nil }
        }.keys
        let declared = (manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []).reduce(
            into: [String: [String]]()
        ) { $0[$1["NSPrivacyAccessedAPIType"] as? String ?? ""] = $1["NSPrivacyAccessedAPITypeReasons"] as? [String] }
        // Check
        #expect(files.count > 20 && used.contains("NSPrivacyAccessedAPICategoryFileTimestamp"))
        for category in used { #expect(declared[category]?.isEmpty == false, "\(category) is used, not declared") }
        #expect(declared["NSPrivacyAccessedAPICategoryFileTimestamp"] == ["C617.1"])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        let collected = (manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]] ?? []).compactMap {
            $0["NSPrivacyCollectedDataType"] as? String
        }
        #expect(
            Set(collected) == ["NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypeProductInteraction"])
    }

    @Test("Off, no installation id is sent and the folder's is removed; the platform still is")
    func installationOff() async throws {
        // Setup: a folder that has an id from before.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        _ = try await StickerSync.testing(service, folder: folder).sync()
        let file = folder.appending(path: ClientFacts.fileName)
        #expect(FileManager.default.fileExists(atPath: file.path))
        let off = MemoryService()
        // Action
        _ = try await StickerSync.testing(off, folder: folder) { $0.sendsInstallationID = false }.sync()
        // Check
        let reads = off.requests.filter { $0.path?.hasPrefix("/v1/manifest") == true }
        #expect(!reads.isEmpty && reads.allSatisfy { $0.headerFields[AudienceFactsTests.installation] == nil })
        #expect(reads.allSatisfy { $0.headerFields[AudienceFactsTests.platform] != nil })
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
