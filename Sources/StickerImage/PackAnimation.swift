import Foundation

/// A sticker's animation made for a platform's pack: every canvas placed on the platform's image (`PackPlacement`),
/// encoded as an animated WebP or an APNG within a byte budget, each frame showing at least a minimum time.
public struct PackAnimation: Sendable {
    public var placement: PackPlacement
    public var format: ImageFormat
    public var budget: Int
    /// Frames shorter than this are left out, their time given to the frame before (WhatsApp: 8 ms).
    public var minFrameMs = 0
    /// Times the animation plays (0: forever); nil keeps the source's.
    public var loops: Int?

    public init(placement: PackPlacement, format: ImageFormat, budget: Int, minFrameMs: Int = 0, loops: Int? = nil) {
        (self.placement, self.format, self.budget, self.minFrameMs, self.loops) = (
            placement, format, budget, minFrameMs, loops
        )
    }

    /// The animation of `source` that fits: a WebP at quality 80, or at the highest quality that fits, or, when none
    /// does, keeping every other frame (then every fourth...) at the quality that fits; an APNG (lossless) only by
    /// keeping fewer frames. Nil when even the sparsest animation does not fit.
    public func make(_ source: StickerSource, rules: StickerRules = StickerRules()) throws -> PackPicture? {
        guard let animation = source.animation else { return nil }
        let frameCount = animation.frames.count
        var stride = 1
        while stride < max(2, frameCount) {
            if format == .png {
                let made = try pass(source, rules: rules, stride: stride, quality: 100)
                if made.bytes.count <= budget {
                    return try picture(made, source: source, rules: rules, stride: stride, quality: nil)
                }
            } else if let (made, quality) = try bestQuality(source, rules: rules, stride: stride) {
                return try picture(made, source: source, rules: rules, stride: stride, quality: quality)
            }
            stride *= 2
        }
        return nil
    }

    /// The WebP at quality 80 when it fits, else at the highest whole quality below that fits; nil when none does.
    private func bestQuality(_ source: StickerSource, rules: StickerRules, stride: Int) throws -> (Pass, Float)? {
        let first = try pass(source, rules: rules, stride: stride, quality: 80)
        if first.bytes.count <= budget { return (first, 80) }
        var (low, high, best) = (0, 79, (Pass, Float)?.none)
        while low <= high {
            let quality = (low + high) / 2
            let made = try pass(source, rules: rules, stride: stride, quality: Float(quality))
            if made.bytes.count <= budget {
                (best, low) = ((made, Float(quality)), quality + 1)
            } else {
                high = quality - 1
            }
        }
        return best
    }

    struct Pass {
        let bytes: [UInt8]
        let kept: [Int]
        let width: Int
        let height: Int
    }

    /// One encoding of the whole animation: played, placed, encoded frame by frame.
    private func pass(_ source: StickerSource, rules: StickerRules, stride: Int, quality: Float) throws -> Pass {
        let canvas = placement.sizes(width: source.width, height: source.height).canvas
        let target = AnimatedRenditions.Target(
            width: canvas.width, height: canvas.height, png: format == .png, webp: format == .webp)
        var animated = AnimatedRenditions(
            targets: [target], stride: stride, minFrameMs: minFrameMs, settings: .init(quality: quality))
        var failure: (any Error)?
        try source.play(rules: rules, still: { _ in }) { _, image, frame in
            guard failure == nil else { return }
            do { try animated.add(placement.apply(image), control: frame) } catch { failure = error }
        }
        if let failure { throw failure }
        animated.finish()
        let bytes = try animated.assemble(0, format: format, loops: loops ?? source.animation?.loops ?? 0)
        return Pass(bytes: bytes, kept: animated.kept, width: canvas.width, height: canvas.height)
    }

    /// What `made` is, with its PSNR over every kept frame against the source frame it shows (played once more).
    private func picture(
        _ made: Pass, source: StickerSource, rules: StickerRules, stride: Int, quality: Float?
    ) throws -> PackPicture {
        let file = try StickerSource(
            made.bytes,
            rules: {
                var rules = rules
                rules.sideRange = 1...4096
                return rules
            }())
        let frames = file.animation?.frames.count ?? 1
        let duration = file.animation?.durationMs ?? 0
        var psnr = Double.infinity
        if quality != nil, case .webp(let webp) = file {
            let reader = try WebPAnimationReader(webp.bytes)
            let kept = Set(made.kept)
            var (squared, samples) = (0.0, 0)
            try source.play(rules: rules, still: { _ in }) { index, image, _ in
                guard kept.contains(index), let shown = reader.next() else { return }
                let placed = placement.apply(image)
                let frame = shown.psnr(placed)
                // Back from dB to a mean squared error, so that the frames add up as one picture would.
                squared += frame.isFinite ? 255 * 255 / pow10(frame / 10) * Double(placed.pixels.count) : 0
                samples += placed.pixels.count
            }
            psnr = squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / Double(max(1, samples))))
        }
        return PackPicture(
            bytes: made.bytes, format: format, width: made.width, height: made.height, frames: frames,
            durationMs: duration,
            psnr: psnr, quality: quality, droppedFrames: (source.animation?.frames.count ?? 1) - frames)
    }
}

private func pow10(_ x: Double) -> Double { exp(x * log(10)) }
