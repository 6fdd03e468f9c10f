#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// This process's file descriptor limit (RLIMIT_NOFILE): connections, streams and uploads are bounded by it.
package enum FileLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit, as the kernel allows any process to: the soft limit's usual
    /// 1,024 is there for programs using `select`, which stickerd does not. The soft limit before and after.
    @discardableResult
    package static func raiseSoftLimit() -> (before: Int, after: Int) {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return (0, 0) }
        let before = Int(clamping: limit.rlim_cur)
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            // An unlimited hard limit (macOS) cannot be the soft one; the kernel's own ceiling then stays.
            if setrlimit(Self.resource, &raised) != 0 { return (before, before) }
        }
        return (before, softLimit())
    }

    /// The soft RLIMIT_NOFILE now: how many descriptors this process may have open.
    package static func softLimit() -> Int {
        var limit = rlimit()
        return getrlimit(Self.resource, &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
    }

    #if os(Linux)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
