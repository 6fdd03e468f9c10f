import Synchronization

/// Tells whoever keeps users' entitlements in memory that some changed: a user's (after a commit on this replica, or
/// a NOTIFY from another), or everyone's (nil: notifications may have been missed while the listener reconnected).
public final class EntitlementChanges: Sendable {
    private let observers = Mutex<[@Sendable (String?) -> Void]>([])

    public init() {}

    public func observe(_ observer: @escaping @Sendable (String?) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// `user`'s entitlements changed; nil: anyone's may have.
    public func changed(user: String?) {
        for observer in observers.withLock({ $0 }) { observer(user) }
    }
}
