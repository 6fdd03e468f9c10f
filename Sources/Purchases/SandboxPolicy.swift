/// Whose sandbox purchases unlock premium groups. Sandbox purchases cost nothing, so letting everyone's count hands
/// premium to every TestFlight tester; counting nobody's breaks App Review, which buys in the sandbox with the demo
/// account the app's review notes name. The default lists the users whose sandbox purchases count.
public enum SandboxPolicy: Sendable, Equatable {
    /// Every user's sandbox purchases count (a staging deployment).
    case everyone
    /// Only these users' (App Review's demo account, the team's testers).
    case listed(Set<String>)
    /// No sandbox purchase unlocks anything.
    case nobody

    /// Whether `user`'s sandbox purchases count.
    public func counts(for user: String) -> Bool {
        switch self {
        case .everyone: true
        case .listed(let users): users.contains(user)
        case .nobody: false
        }
    }
}
