import Foundation

/// How a sync behaves: limits and timings, apart from what it shows (`CatalogView`) and who asks (`Credentials`).
public struct SyncOptions: Sendable {
    /// Downloads at once.
    public var concurrency = 8
    /// The largest image file believed, in bytes: the service refuses uploads over 500 KB and its renditions are
    /// smaller, so a manifest naming a larger one is refused (`invalidAnswer`) and that file is not fetched. Each
    /// download is written to disk as it arrives, so memory does not grow with this.
    public var largestImage = 5 << 20
    /// How long a sync of a folder synced before may take; past it the sync ends as `StickerClientError.timedOut`,
    /// keeping the files it stored (the next sync goes on from them).
    public var deadline: Duration = .seconds(60)
    /// How long a first sync (a folder never synced: the whole catalog to fetch) may take.
    public var firstSyncDeadline: Duration = .seconds(300)
    /// A first sync of a large catalog that has run this long when its first groups are in commits them then, so they
    /// show while the rest comes (a faster one commits once, at the end).
    public var checkpointAfter: Duration = .seconds(2)
    /// How long a sync ready to commit waits for another process (an app's extension) committing to the same folder;
    /// past it the sync ends as `StickerClientError.busy`. The lock is held only while a commit writes.
    public var lockWait: Duration = .seconds(5)
    /// How long a file no longer named stays on disk (Messages may still show it).
    public var purgeGrace: TimeInterval = 86_400
    /// The bytes `StickerLibrary` keeps of groups previewed and the index's covers, beyond the installed groups' (which
    /// are never evicted): the least recently used go first.
    public var cacheBudget = 100_000_000
    /// Tries per request: 503 and 429 are retried after their Retry-After, connection failures with backoff.
    public var attempts = 5
    /// Change-feed pages one sync reads at most before it takes the whole manifest instead.
    public var maxPages = 100
    public var backoff = Backoff()
    /// Marks the folder excluded from iCloud and iTunes backups (its files come back from the service); Apple
    /// platforms only.
    public var excludeFromBackup = true
    /// Records what `StickerSync.record(_:sticker:)` is told and sends it to the service (`POST /v1/usage`, counts
    /// without who sent them: trending). Off, `record` keeps nothing and nothing is sent; events already kept in the
    /// folder stay there, unsent, until it is on again (the service ignores those over 48 hours old, and so does the
    /// queue).
    public var recordsUsage = true
    /// The platform sent as `Sticker-Platform`, for groups the service shows on some platforms only: by default the
    /// one this library was built for (`ios`, `macos`, `android`, `linux`...); nil sends none. A name that is not
    /// lower-case letters, digits and dashes is not sent.
    public var platform: String? = ClientFacts.currentPlatform
    /// The app's version sent as `Sticker-App-Version` (`major[.minor[.patch]]`), for groups shown to some versions
    /// only: by default the app's `CFBundleShortVersionString` when it is such a version. A malformed one is not sent.
    public var appVersion: String? = ClientFacts.bundleVersion
    /// Sends `Sticker-Installation`, a random id made once per folder (`installation-id`), so the service can show a
    /// group to a stable share of installations (a rollout of 10%). Off, none is sent and the folder's id is removed:
    /// partial rollouts then show such an app nothing until they reach 100%. The id is never a user's or a device's
    /// identity (the package's `PrivacyInfo.xcprivacy` declares it as not linked, not tracking).
    public var sendsInstallationID = true
    /// Notifications that say the app came to the foreground (`AppLifecycle.foreground`: UIKit's, an extension
    /// host's, WatchKit's or AppKit's, by name): a sync that follows the catalog (`follow()`) syncs at each, and stickers
    /// seen count anew. Empty on Linux.
    public var foregroundNotifications: [Notification.Name] = AppLifecycle.foreground
    /// Notifications that say the app went to the background (`AppLifecycle.background`): usage recorded is written
    /// to the folder at each, within an expiring activity, rather than a few seconds later.
    public var backgroundNotifications: [Notification.Name] = AppLifecycle.background

    public init() {}
}
