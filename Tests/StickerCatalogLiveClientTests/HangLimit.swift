import Testing

extension Trait where Self == TimeLimitTrait {
    /// The limit for a test that could hang: it catches a hang, not slowness (the whole suite starts at once on two
    /// cores, so a test that takes seconds alone can take minutes in it).
    static var hangLimit: Self { .timeLimit(.minutes(10)) }
}
