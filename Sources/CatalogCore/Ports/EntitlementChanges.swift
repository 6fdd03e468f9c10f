import Synchronization

/// Tells whoever keeps users' entitlements in memory that some changed: a user's (after a commit on this replica, or
/// a NOTIFY from another), or everyone's (nil: notifications may have been missed while the listener reconnected).
/// After everyone's, each user's products are read again at their own moment within `refreshWindow`
/// (`refreshOffset`), not all at once: a blip must not cost one primary read per signed-in user in the same second.
package final class EntitlementChanges: Sendable {
    private let observers = Mutex<[@Sendable (String?) -> Void]>([])
    /// How long catching up after a blip is spread over; a change missed in the blip shows within it.
    package let refreshWindow: Duration

    package init(refreshWindow: Duration = .seconds(30)) {
        self.refreshWindow = refreshWindow
    }

    package func observe(_ observer: @escaping @Sendable (String?) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// `user`'s entitlements changed; nil: anyone's may have.
    package func changed(user: String?) {
        for observer in observers.withLock({ $0 }) { observer(user) }
    }

    /// When, after everyone's entitlements may have changed, `user`'s are read again: a fixed point of the window
    /// chosen by a hash of the id (FNV-1a), so the cache and the streams agree and users spread evenly.
    package func refreshOffset(user: String) -> Duration {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in user.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return refreshWindow * (Double(hash % 1_000_000) / 1_000_000)
    }
}
