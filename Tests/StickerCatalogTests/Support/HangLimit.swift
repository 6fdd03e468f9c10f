import Testing

extension Trait where Self == TimeLimitTrait {
    /// The limit for a test that could hang: it catches a hang, not slowness. The whole suite starts at once on two
    /// cores, so a test that takes 5 s alone can take over two minutes in it (a CI run's ClientPurchaseTests did).
    static var hangLimit: Self { .timeLimit(.minutes(10)) }
}
