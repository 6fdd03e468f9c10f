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
/// Canvases (or sizes, for a still) run in parallel on every core. An animation's canvases are kept at full size
/// while it is rendered: at most `StickerRules.maxDecodedBytes` (128 MiB), 45 MiB for 30 frames of 618 x 618.
public enum Renditions {
    /// Bump when the resampler or the encoder changes: `stickerd renditions rebuild` redoes older renditions.
    /// 2: 16-bit files read as sRGB, and every APNG frame in the file's colour space.
    public static let version = 2

    /// How many renditions `make` gives an image: a still at every edge, and an animation too for an APNG.
    public static func count(animated: Bool) -> Int {
        RenditionEdge.all.count * (animated ? 2 : 1)
    }

    public static func make(_ file: PNGFile, stored: [UInt8], rules: StickerRules = StickerRules()) throws -> [Rendition] {
        let edges = RenditionEdge.all
        let sizes = edges.map { RenditionEdge.fitted(width: file.width, height: file.height, edge: $0) }
        let shrunk = edges.indices.filter { sizes[$0] != (file.width, file.height) }
        // Decode and composite: the default image, and each frame's full canvas (a canvas equal to the one before
        // is kept once: `shown[frame]` names the canvas each frame shows).
        var defaultImage: RGBAImage?
        var canvases: [RGBAImage] = []
        var shown: [Int] = []
        var compositor = APNGCompositor(width: file.width, height: file.height)
        let side = rules.sideRange.upperBound
        try file.decodeAllFrames(maxPixels: side * side, rules: rules) { decoded in
            switch decoded {
            case .defaultImage(let image):
                defaultImage = image
            case .frame(let index, let image):
                guard let frame = file.animation?.frames[index] else { return }
                let canvas = compositor.render(frame, image: image, index: index)
                if canvases.last?.pixels != canvas.pixels { canvases.append(canvas) }
                shown.append(canvases.count - 1)
            }
        }
        guard let defaultImage else { throw PNGWriter.Failure(message: "the image did not decode") }
        // Resize and compress every canvas at every smaller size: one canvas a task, all cores busy.
        let compressed = try parallel(canvases.count) { index in
            let linear = LinearImage(canvases[index])
            return try shrunk.map { edge in try PNGWriter.imageData(Lanczos.resize(linear, width: sizes[edge].width, height: sizes[edge].height).rgba) }
        }
        let linear = LinearImage(defaultImage)
        let stills = try parallel(shrunk.count) { i in
            try PNGWriter.encode(Lanczos.resize(linear, width: sizes[shrunk[i]].width, height: sizes[shrunk[i]].height).rgba)
        }
        let animation = file.animation
        // At full size a still sticker is its stored file; an APNG's still is its default image on its own.
        let fullStill = shrunk.count == edges.count ? [] : animation == nil ? stored : try PNGWriter.encode(defaultImage)
        var renditions: [Rendition] = []
        for (index, edge) in edges.enumerated() {
            let (width, height) = sizes[index]
            let shrunkIndex = shrunk.firstIndex(of: index)
            renditions.append(Rendition(edge: edge, still: true, bytes: shrunkIndex.map { stills[$0] } ?? fullStill, width: width,
                                        height: height, frames: 1, durationMs: 0, loops: 0,
                                        isOriginal: shrunkIndex == nil && animation == nil))
            guard let animation else { continue }
            var bytes = stored
            if let shrunkIndex {
                let frames = animation.frames.enumerated().map { frame, control in
                    APNGEncoder.EncodedFrame(data: compressed[shown[frame]][shrunkIndex], width: width, height: height,
                                             delayNumerator: control.delayNumerator, delayDenominator: control.delayDenominator)
                }
                bytes = APNGEncoder.assemble(width: width, height: height, frames: frames, loops: UInt32(animation.loops))
            }
            renditions.append(Rendition(edge: edge, still: false, bytes: bytes, width: width, height: height,
                                        frames: animation.frames.count, durationMs: animation.durationMs, loops: animation.loops,
                                        isOriginal: shrunkIndex == nil))
        }
        return renditions
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
