import ArgumentParser
import StickerImage

/// The animation limits of the sticker rules, for `serve` and `validate`.
struct LimitOptions: ParsableArguments {
    @Option(help: "Most frames an animated sticker may have.")
    var maxFrames = StickerRules().maxFrames

    @Option(help: "Longest play time of one loop of an animated sticker, in milliseconds.")
    var maxDurationMs = StickerRules().maxDurationMs

    @Option(help: "Most memory all frames of a sticker may take once decoded, in MiB.")
    var maxDecodedMib = StickerRules().maxDecodedBytes / (1024 * 1024)

    func validate() throws {
        guard maxFrames >= 1, maxDurationMs >= 0, maxDecodedMib >= 1 else {
            throw ValidationError("--max-frames and --max-decoded-mib must be at least 1, --max-duration-ms at least 0")
        }
    }

    var rules: StickerRules {
        var rules = StickerRules()
        (rules.maxFrames, rules.maxDurationMs, rules.maxDecodedBytes) = (
            maxFrames, maxDurationMs, maxDecodedMib * 1024 * 1024
        )
        return rules
    }
}
