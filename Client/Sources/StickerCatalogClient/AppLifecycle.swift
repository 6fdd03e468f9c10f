import Foundation

/// The notifications that say an app came to the foreground or went to the background, by platform, by name (so no
/// UIKit, AppKit or WatchKit is linked for them): an app's own and an app extension's (a Messages or keyboard
/// extension gets `NSExtensionHost…`). A sync that follows the catalog syncs when the app comes back (its event stream
/// may have died while it was suspended), the usage seen counts anew, and usage recorded is written as the app leaves.
public enum AppLifecycle {
    /// The app or extension came to the foreground.
    public static var foreground: [Notification.Name] {
        #if os(iOS) || os(tvOS) || os(visionOS)
            [
                .init("UIApplicationWillEnterForegroundNotification"),
                .init("NSExtensionHostWillEnterForegroundNotification"),
            ]
        #elseif os(watchOS)
            [.init("WKApplicationWillEnterForegroundNotification")]
        #elseif os(macOS)
            [.init("NSApplicationDidBecomeActiveNotification")]
        #else
            []
        #endif
    }

    /// The app or extension went to the background (and may be suspended at any moment).
    public static var background: [Notification.Name] {
        #if os(iOS) || os(tvOS) || os(visionOS)
            [
                .init("UIApplicationDidEnterBackgroundNotification"),
                .init("NSExtensionHostDidEnterBackgroundNotification"),
            ]
        #elseif os(watchOS)
            [.init("WKApplicationDidEnterBackgroundNotification")]
        #elseif os(macOS)
            [.init("NSApplicationWillTerminateNotification")]
        #else
            []
        #endif
    }
}

/// Observers of the lifecycle notifications for one sync, removed when it goes.
final class LifecycleObservers: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [any NSObjectProtocol] = []

    /// Calls `foreground` and `background` on each of their notifications (on the poster's thread).
    func start(
        foreground: [Notification.Name], background: [Notification.Name],
        _ onForeground: @escaping @Sendable () -> Void, _ onBackground: @escaping @Sendable () -> Void
    ) {
        let center = NotificationCenter.default
        let made =
            foreground.map { center.addObserver(forName: $0, object: nil, queue: nil) { _ in onForeground() } }
            + background.map { center.addObserver(forName: $0, object: nil, queue: nil) { _ in onBackground() } }
        lock.withLock { tokens += made }
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}
