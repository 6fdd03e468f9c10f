import Dispatch

/// One picture a sticker is served as: fitted inside an `edge` x `edge` box, animated or still.
public struct Rendition: Sendable, Equatable {
    public let edge: Int
    /// A still picture: the sticker itself when it is still, an APNG's default image otherwise.
    public let still: Bool
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    public let frames: Int
    public let durationMs: Int
    public let loops: Int
    /// The box was not smaller than the sticker: these are the stored original's bytes.
    public let isOriginal: Bool

    public var animated: Bool { !still && frames > 1 }
}

/// Every rendition of a validated sticker, as a plain function from bytes to bytes: for each edge of
/// `RenditionEdge.all`, the picture fitted in the box (Lanczos-3 in premultiplied linear light, `Lanczos`), encoded
/// by libpng (`PNGWriter`). An APNG's frames are composited onto the canvas first (`APNGCompositor`), then resized
/// and re-encoded as an APNG with the same delays and loop count; its stills are its default image.
/// Sizes run in parallel on every core. An animation is rendered one canvas at a time (`AnimatedRenditions`), each
/// frame after the first encoded as the rectangle that changed, so neither memory nor the files grow with a frame
/// count the source's own encoding hid. No rendition is larger than the sticker rules allow (500 KB): an animation
/// that would be plays as its still picture at that size, and a still that would be refuses the upload.
public enum Renditions {
    /// Bump when the resampler or the encoder changes: `stickerd renditions rebuild` redoes older renditions.
    /// 2: 16-bit files read as sRGB, every APNG frame in the file's colour space, animations as changed rectangles.
    public static let version = 2

    /// How many renditions `make` gives an image: a still at every edge, and an animation too for an APNG.
    public static func count(animated: Bool) -> Int {
        RenditionEdge.all.count * (animated ? 2 : 1)
    }

    public static func make(_ file: PNGFile, stored: [UInt8], rules: StickerRules = StickerRules()) throws -> [Rendition] {
        let edges = RenditionEdge.all
        let sizes = edges.map { RenditionEdge.fitted(width: file.width, height: file.height, edge: $0) }
        let shrunk = edges.indices.filter { sizes[$0] != (file.width, file.height) }
        // Decode and composite frame by frame, each canvas resized and encoded at every smaller size as it comes.
        var defaultImage: RGBAImage?
        var animated = AnimatedRenditions(targets: shrunk.map { .init(width: sizes[$0].width, height: sizes[$0].height) })
        var compositor = APNGCompositor(width: file.width, height: file.height)
        var failure: (any Error)?
        let side = rules.sideRange.upperBound
        try file.decodeAllFrames(maxPixels: side * side, rules: rules, sRGB: true) { decoded in
            switch decoded {
            case .defaultImage(let image):
                defaultImage = image
            case .frame(let index, let image):
                guard failure == nil, let frame = file.animation?.frames[index] else { return }
                do { try animated.add(compositor.render(frame, image: image, index: index), control: frame) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        guard let defaultImage else { throw PNGWriter.Failure(message: "the image did not decode") }
        let linear = LinearImage(defaultImage)
        let stills = try parallel(shrunk.count) { i in
            try PNGWriter.encode(Lanczos.resize(linear, width: sizes[shrunk[i]].width, height: sizes[shrunk[i]].height).rgba)
        }
        let animation = file.animation
        // At full size a still sticker is its stored file; an APNG's still is its default image on its own.
        let fullStill = shrunk.count == edges.count ? [] : animation == nil ? stored : try PNGWriter.encode(defaultImage)
        let fitted = try animation.map { try fit(animated, file: file, rules: rules, loops: $0.loops, frameCount: $0.frames.count) } ?? [:]
        var renditions: [Rendition] = []
        for (index, edge) in edges.enumerated() {
            let (width, height) = sizes[index]
            let shrunkIndex = shrunk.firstIndex(of: index)
            let still = shrunkIndex.map { stills[$0] } ?? fullStill
            // Messages refuses sticker files over the limit, and so does this service: no rendition may pass it.
            guard still.count <= rules.maxBytes else {
                throw StickerRejection.renditionTooLarge(edge: edge, bytes: still.count, limit: rules.maxBytes)
            }
            renditions.append(Rendition(edge: edge, still: true, bytes: still, width: width, height: height, frames: 1, durationMs: 0,
                                        loops: 0, isOriginal: shrunkIndex == nil && animation == nil))
            guard let animation else { continue }
            var (bytes, frames, durationMs, loops) = (stored, animation.frames.count, animation.durationMs, animation.loops)
            if let shrunkIndex {
                // Past a single frame, an animation that fits nowhere at this size plays as its still picture.
                (bytes, frames) = fitted[shrunkIndex] ?? (still, 1)
                if frames == 1 { (durationMs, loops) = (0, 0) }
            }
            renditions.append(Rendition(edge: edge, still: false, bytes: bytes, width: width, height: height,
                                        frames: frames, durationMs: durationMs, loops: loops, isOriginal: shrunkIndex == nil))
        }
        return renditions
    }

    /// The animated rendition at each target of `animated` that fits the size limit, by target: as made, or, where it
    /// is too big, keeping every other frame (then every fourth...), each shown for the frames it stands for, so it
    /// plays as long at a lower frame rate. All the targets still too big share one more pass of the file per try.
    static func fit(_ animated: AnimatedRenditions, file: PNGFile, rules: StickerRules, loops: Int,
                    frameCount: Int) throws -> [Int: (bytes: [UInt8], frames: Int)] {
        var fitted: [Int: (bytes: [UInt8], frames: Int)] = [:]
        var pending: [Int] = []
        for target in animated.targets.indices {
            let bytes = animated.assemble(target, loops: loops)
            if bytes.count <= rules.maxBytes { fitted[target] = (bytes, frameCount) } else { pending.append(target) }
        }
        var stride = 1
        while !pending.isEmpty {
            stride *= 2
            guard stride < frameCount else { break }
            let fewer = try animate(file, rules: rules, targets: pending.map { animated.targets[$0] }, stride: stride)
            pending = pending.enumerated().compactMap { offset, target in
                let bytes = fewer.assemble(offset, loops: loops)
                guard bytes.count <= rules.maxBytes else { return target }
                fitted[target] = (bytes, fewer.frames[offset].count)
                return nil
            }
        }
        return fitted
    }

    /// The animation at `targets` keeping every `stride`-th frame: the file decoded and composited again.
    static func animate(_ file: PNGFile, rules: StickerRules, targets: [AnimatedRenditions.Target], stride: Int) throws -> AnimatedRenditions {
        var animated = AnimatedRenditions(targets: targets, stride: stride)
        var compositor = APNGCompositor(width: file.width, height: file.height)
        var failure: (any Error)?
        try file.decodeAllFrames(maxPixels: rules.sideRange.upperBound * rules.sideRange.upperBound, rules: rules, sRGB: true) { decoded in
            guard case .frame(let index, let image) = decoded, failure == nil, let frame = file.animation?.frames[index] else { return }
            do { try animated.add(compositor.render(frame, image: image, index: index), control: frame) } catch { failure = error }
        }
        if let failure { throw failure }
        return animated
    }

    /// `count` results of `body`, computed on all cores; the first error is rethrown.
    static func parallel<T>(_ count: Int, _ body: (Int) throws -> T) throws -> [T] {
        var results = [Result<T, any Error>?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let slots = slots
            withoutActuallyEscaping(body) { body in
                nonisolated(unsafe) let body = body
                DispatchQueue.concurrentPerform(iterations: count) { index in slots[index] = Result { try body(index) } }
            }
        }
        return try results.map { result in
            guard let result else { throw PNGWriter.Failure(message: "a rendition was not made") }
            return try result.get()
        }
    }
}
