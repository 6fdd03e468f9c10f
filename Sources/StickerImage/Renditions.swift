import Dispatch

/// One picture a sticker is served as: fitted inside an `edge` x `edge` box, animated or still, PNG or WebP.
public struct Rendition: Sendable, Equatable {
    public let edge: Int
    /// A still picture: the sticker itself when it is still, an animation's still picture otherwise.
    public let still: Bool
    /// PNG (APNG when animated) or WebP.
    public let format: ImageFormat
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    public let frames: Int
    public let durationMs: Int
    public let loops: Int
    /// The box was not smaller than the sticker and the format is the upload's: these are the stored original's bytes.
    public let isOriginal: Bool

    public var animated: Bool { !still && frames > 1 }
}

/// Every rendition of a validated sticker, as a plain function from bytes to bytes: for each edge of
/// `RenditionEdge.all` and each format (PNG and WebP), the picture fitted in the box (Lanczos-3 in premultiplied
/// linear light, `Lanczos`), encoded by libpng (`PNGWriter`) and libwebp (`WebPCodec`, lossy colour with lossless
/// alpha). An animation's canvases (`StickerSource.play`) are resized and encoded as an APNG and an animated WebP
/// with the same frames, delays and loop count (`AnimatedRenditions`); its stills are its still picture.
/// Sizes run in parallel on every core, one canvas at a time, so memory does not grow with the frame count.
/// No rendition is larger than the sticker rules allow (500 KB): an animation that would be plays fewer frames or,
/// failing that, its still picture at that size; a still that would be refuses the upload.
public enum Renditions {
    /// Bump when the resampler or the encoders change: `stickerd renditions rebuild` redoes older renditions.
    /// 2: 16-bit files read as sRGB, every APNG frame in the file's colour space, animations as changed rectangles.
    /// 3: WebP renditions beside the PNG ones.
    /// 4: no rendition larger than a larger picture of its kind; WebP lossless where smaller; a GIF's APNG as a palette.
    public static let version = 4

    /// The formats every sticker is served in.
    public static let formats: [ImageFormat] = [.png, .webp]

    /// How many renditions `make` gives an image: a still at every edge in each format, and an animation too when it
    /// moves.
    public static func count(animated: Bool) -> Int {
        RenditionEdge.all.count * formats.count * (animated ? 2 : 1)
    }

    /// A size to make: the sticker fitted in some box, and which formats need encoding there (none for the format of
    /// the upload at its own size: that is the stored file).
    struct Picture: Equatable {
        let width: Int
        let height: Int
        let isFull: Bool
    }

    /// `still` is handed the sticker's still picture, decoded once for both (the upload's placeholder colour). Each
    /// rendition is the picture fitted in its box, or a larger one of its kind that takes fewer bytes (`smallest`).
    public static func make(
        _ file: StickerSource, stored: [UInt8], rules: StickerRules = StickerRules(),
        still: (RGBAImage) -> Void = { _ in }
    ) throws -> [Rendition] {
        smallest(try exact(file, stored: stored, rules: rules, still: still))
    }

    /// Every rendition at the size fitted in its box, whatever its bytes.
    package static func exact(
        _ file: StickerSource, stored: [UInt8], rules: StickerRules = StickerRules(),
        still: (RGBAImage) -> Void = { _ in }
    ) throws -> [Rendition] {
        let edges = RenditionEdge.all
        let sizes = edges.map { RenditionEdge.fitted(width: file.width, height: file.height, edge: $0) }
        var pictures: [Picture] = []
        for (width, height) in sizes where !pictures.contains(where: { $0.width == width && $0.height == height }) {
            pictures.append(Picture(width: width, height: height, isFull: (width, height) == (file.width, file.height)))
        }
        let animation = file.animation
        let needs = { (picture: Picture, format: ImageFormat) in !(picture.isFull && format == file.format) }
        var animated = AnimatedRenditions(
            targets: pictures.map {
                .init(
                    width: $0.width, height: $0.height, png: needs($0, .png), webp: needs($0, .webp),
                    layout: file.frameLayout(fullSize: $0.isFull))
            })
        var stillPicture: RGBAImage?
        var failure: (any Error)?
        try file.play(rules: rules, still: { stillPicture = $0 }) { _, canvas, frame in
            guard failure == nil else { return }
            do { try animated.add(canvas, control: frame) } catch { failure = error }
        }
        if let failure { throw failure }
        guard let stillPicture else { throw PNGWriter.Failure(message: "the image did not decode") }
        still(stillPicture)
        let stills = try makeStills(
            stillPicture, pictures: pictures, keepStored: animation == nil ? file.format : nil, stored: stored,
            photo: file.format == .jpeg)
        let moving =
            try animation.map {
                try fit(animated, file: file, rules: rules, loops: $0.loops, frameCount: $0.frames.count)
            } ?? [:]
        var renditions: [Rendition] = []
        for format in formats {
            for (index, edge) in edges.enumerated() {
                let (width, height) = sizes[index]
                let at = pictures.firstIndex { $0.width == width && $0.height == height }!
                let still = stills[Key(at, format)]!
                // Messages refuses sticker files over the limit, and so does this service: no rendition may pass it.
                guard still.count <= rules.maxBytes else {
                    throw StickerRejection.renditionTooLarge(edge: edge, bytes: still.count, limit: rules.maxBytes)
                }
                renditions.append(
                    Rendition(
                        edge: edge, still: true, format: format, bytes: still, width: width, height: height, frames: 1,
                        durationMs: 0, loops: 0, isOriginal: animation == nil && still == stored))
                guard let animation else { continue }
                var (bytes, frames, durationMs, loops) = (
                    stored, animation.frames.count, animation.durationMs, animation.loops
                )
                if needs(pictures[at], format) {
                    // Past a single frame, an animation that fits nowhere at this size plays as its still picture.
                    (bytes, frames) = moving[Key(at, format)] ?? (still, 1)
                    if frames == 1 { (durationMs, loops) = (0, 0) }
                }
                renditions.append(
                    Rendition(
                        edge: edge, still: false, format: format, bytes: bytes, width: width, height: height,
                        frames: frames, durationMs: durationMs, loops: loops, isOriginal: !needs(pictures[at], format)))
            }
        }
        return renditions
    }

    /// `renditions` where each is no larger in bytes than any picture of its kind (format, still or animated) made
    /// for a larger box, the stored upload among them: a larger picture that takes fewer bytes is served instead, and
    /// the client fits it in the box (a resized copy of flat art gains the in-between colours of its edges and can
    /// outgrow its source: the tour's Lemon at 300 px took 21,919 bytes against its 8,904-byte 408 px original).
    package static func smallest(_ renditions: [Rendition]) -> [Rendition] {
        var best: [String: Rendition] = [:]
        var out = renditions
        for index in renditions.indices.sorted(by: { renditions[$0].edge > renditions[$1].edge }) {
            let rendition = renditions[index]
            let kind = "\(rendition.format.rawValue) \(rendition.still)"
            if let smaller = best[kind], smaller.bytes.count < rendition.bytes.count {
                out[index] = Rendition(serving: smaller, at: rendition.edge)
            } else {
                best[kind] = rendition
            }
        }
        return out
    }

    /// A picture and a format.
    struct Key: Hashable {
        let picture: Int
        let format: ImageFormat
        init(_ picture: Int, _ format: ImageFormat) { (self.picture, self.format) = (picture, format) }
    }

    /// The still picture at every size in both formats, encoded on all cores; at full size in `keepStored`'s format
    /// (a still upload's own) it is the stored file, or for a PNG our own encoding of it where that is smaller (both
    /// exact: the demo's Caramel is 3,266 bytes as drawn, less as encoded here).
    /// A `photo` (a JPEG's picture) is encoded as photographs compress best: PNG with row filters, WebP lossy only
    /// (lossless never wins on a photo's grain, and trying took half the time).
    static func makeStills(
        _ picture: RGBAImage, pictures: [Picture], keepStored: ImageFormat?, stored: [UInt8], photo: Bool = false
    ) throws -> [Key: [UInt8]] {
        let linear = LinearImage(picture)
        let jobs = pictures.indices.flatMap { index in formats.map { Key(index, $0) } }
            .filter { !(pictures[$0.picture].isFull && $0.format == keepStored && keepStored != .png) }
        let encoded = try parallel(jobs.count) { job in
            let size = pictures[jobs[job].picture]
            let image = size.isFull ? picture : Lanczos.resize(linear, width: size.width, height: size.height).rgba
            return jobs[job].format == .webp
                ? try WebPCodec.encode(image, photo ? WebPCodec.Settings() : .rendition)
                : try PNGWriter.encode(image, encoding: photo ? .photo : .art)
        }
        var stills = Dictionary(uniqueKeysWithValues: zip(jobs, encoded))
        if let keepStored, let full = pictures.firstIndex(where: \.isFull) {
            let key = Key(full, keepStored)
            if let ours = stills[key], ours.count < stored.count { stills[key] = ours } else { stills[key] = stored }
        }
        return stills
    }

    /// The animated rendition of each target and format of `animated` that fits the size limit: as made, or, where it
    /// is too big, keeping every other frame (then every fourth...), each shown for the frames it stands for, so it
    /// plays as long at a lower frame rate. All the files still too big share one more pass of the file per try.
    static func fit(
        _ animated: AnimatedRenditions, file: StickerSource, rules: StickerRules, loops: Int,
        frameCount: Int
    ) throws -> [Key: (bytes: [UInt8], frames: Int)] {
        var fitted: [Key: (bytes: [UInt8], frames: Int)] = [:]
        var pending: [Key] = []
        for (target, description) in animated.targets.enumerated() {
            for format in formats where format == .webp ? description.webp : description.png {
                let bytes = try animated.assemble(target, format: format, loops: loops)
                if bytes.count <= rules.maxBytes {
                    fitted[Key(target, format)] = (bytes, frameCount)
                } else {
                    pending.append(Key(target, format))
                }
            }
        }
        var stride = 1
        while !pending.isEmpty {
            stride *= 2
            guard stride < frameCount else { break }
            let targets = Array(Set(pending.map(\.picture))).sorted()
            let fewer = try animate(
                file, rules: rules, stride: stride,
                targets: targets.map { index in
                    var target = animated.targets[index]
                    (target.png, target.webp) = (
                        pending.contains(Key(index, .png)), pending.contains(Key(index, .webp))
                    )
                    return target
                })
            pending = try pending.filter { key in
                let offset = targets.firstIndex(of: key.picture)!
                let bytes = try fewer.assemble(offset, format: key.format, loops: loops)
                guard bytes.count <= rules.maxBytes else { return true }
                fitted[key] = (bytes, fewer.frameCounts[offset])
                return false
            }
        }
        return fitted
    }

    /// The animation at `targets` keeping every `stride`-th frame: the file decoded and played again.
    static func animate(
        _ file: StickerSource, rules: StickerRules, stride: Int, targets: [AnimatedRenditions.Target]
    ) throws -> AnimatedRenditions {
        var animated = AnimatedRenditions(targets: targets, stride: stride)
        var failure: (any Error)?
        try file.play(rules: rules, still: { _ in }) { _, canvas, frame in
            guard failure == nil else { return }
            do { try animated.add(canvas, control: frame) } catch { failure = error }
        }
        if let failure { throw failure }
        return animated
    }

    /// `count` results of `body`, computed on all cores (`concurrentMap`).
    static func parallel<T>(_ count: Int, _ body: (Int) throws -> T) throws -> [T] {
        try concurrentMap(count, body)
    }
}

/// `count` results of `body`, computed on all cores; the first error is rethrown.
public func concurrentMap<T>(_ count: Int, _ body: (Int) throws -> T) throws -> [T] {
    var results = [Result<T, any Error>?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { slots in
        nonisolated(unsafe) let slots = slots
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: count) { index in slots[index] = Result { try body(index) } }
        }
    }
    return try results.map { result in
        guard let result else { throw PNGWriter.Failure(message: "a result was not made") }
        return try result.get()
    }
}

extension Rendition {
    /// `other`'s picture served for the box of `edge`.
    init(serving other: Rendition, at edge: Int) {
        self.init(
            edge: edge, still: other.still, format: other.format, bytes: other.bytes, width: other.width,
            height: other.height, frames: other.frames, durationMs: other.durationMs, loops: other.loops,
            isOriginal: other.isOriginal)
    }
}
