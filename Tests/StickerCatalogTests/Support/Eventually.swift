/// How long a test waits for something another task, replica or process does in the background. The whole suite
/// starts at once on two cores, where a NOTIFY that takes milliseconds alone has taken over 10 s; a wait this long
/// catches what never happens, and how fast it happens is for the benchmarks to measure.
let patience = Duration.seconds(60)

/// Calls `attempt` until its result satisfies `done` or `limit` passes, pausing `pause` between calls; the last result.
func eventually<T>(
    within limit: Duration = patience, pause: Duration = .milliseconds(50),
    _ attempt: () async throws -> T, until done: (T) throws -> Bool
) async throws -> T {
    let deadline = ContinuousClock.now + limit
    var result = try await attempt()
    while try !done(result), ContinuousClock.now < deadline {
        try await Task.sleep(for: pause)
        result = try await attempt()
    }
    return result
}
