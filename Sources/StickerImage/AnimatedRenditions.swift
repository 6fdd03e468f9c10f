/// An animation's renditions, APNG and animated WebP, made one canvas at a time as the source plays: each canvas is
/// resized to every target at once and dropped, so memory holds one canvas and the previous picture at each target,
/// never the whole animation (100 full canvases of 618 x 618 were 146 MiB). Each frame after the first is encoded as
/// the rectangle that changed since the frame before (as the source was), not the whole picture: a file of one-pixel
/// frames stays small at every size. A frame where nothing moved is kept as a frame showing nothing new, so both
/// formats have the source's frames and timing. With a `stride` of k only every k-th frame is kept, showing for the
/// delays of the k frames it stands for, so the animation plays for as long at a lower frame rate; with a
/// `minFrameMs`, frames are left out the same way until each frame kept shows for at least that long (WhatsApp's 8 ms).
struct AnimatedRenditions {
    struct Target {
        let width: Int
        let height: Int
        /// Which files to make at this size.
        var png = true
        var webp = true
        /// How the APNG's frames store their pixels.
        var layout = FrameLayout.rgba
    }

    let targets: [Target]
    let stride: Int
    let minFrameMs: Int
    let settings: WebPCodec.Settings
    /// Each target's WebP settings: `settings` for the first frame, then lossless or lossy as it came out smaller.
    private var webpSettings: [WebPCodec.Settings]
    /// The source frames kept, in order.
    private(set) var kept: [Int] = []
    private(set) var png: [[APNGEncoder.EncodedFrame]]
    private(set) var webp: [[WebPAnimation.EncodedFrame]]
    /// Frames kept at each target (the same for both formats).
    var frameCounts: [Int] { targets.indices.map { max(png[$0].count, webp[$0].count) } }
    private var previous: [RGBAImage?]
    private var lastCanvas: [UInt8]?
    private var played = 0
    /// Play time so far and what the WebP frames have shown of it, so whole-millisecond durations never drift.
    private var elapsedMs = 0.0
    private var shownMs = 0
    /// How long the last frame kept shows so far.
    private var keptDurationMs = 0

    init(targets: [Target], stride: Int = 1, minFrameMs: Int = 0, settings: WebPCodec.Settings = .rendition) {
        (self.targets, self.stride, self.minFrameMs, self.settings) = (targets, stride, minFrameMs, settings)
        png = Array(repeating: [], count: targets.count)
        webp = Array(repeating: [], count: targets.count)
        previous = Array(repeating: nil, count: targets.count)
        webpSettings = Array(repeating: settings, count: targets.count)
    }

    /// Adds the picture `canvas` shows for `control`'s delay, at every target size.
    mutating func add(_ canvas: RGBAImage, control: Animation.Frame) throws {
        defer { played += 1 }
        elapsedMs += control.delayMs
        let durationMs = Int(elapsedMs.rounded()) - shownMs
        guard played % stride == 0, played == 0 || keptDurationMs >= minFrameMs else {
            // A frame left out: the frame kept before it shows for its delay too.
            for index in targets.indices {
                if !png[index].isEmpty { png[index][png[index].count - 1].delay(adding: control) }
                if !webp[index].isEmpty { webp[index][webp[index].count - 1].durationMs += durationMs }
            }
            shownMs += durationMs
            keptDurationMs += durationMs
            return
        }
        shownMs += durationMs
        kept.append(played)
        keptDurationMs = durationMs
        let first = lastCanvas == nil
        if !first, canvas.pixels == lastCanvas {
            // Nothing moved: a frame that draws nothing new holds the picture for this frame's delay.
            let unchanged = try WebPAnimation.unchanged(durationMs: durationMs)
            for index in targets.indices {
                guard let picture = previous[index] else { continue }
                if targets[index].png {
                    append(
                        index, region: (0, 0, 1, 1),
                        data: try PNGWriter.imageData(Self.crop(picture, (0, 0, 1, 1)), layout: targets[index].layout),
                        control: control)
                }
                if targets[index].webp { webp[index].append(unchanged) }
            }
            return
        }
        let linear =
            targets.contains { $0.width != canvas.width || $0.height != canvas.height } ? LinearImage(canvas) : nil
        let (targets, previous, settings) = (self.targets, self.previous, self.webpSettings)
        // Resize, find what changed and compress it: each size on a core of its own.
        let made = try Renditions.parallel(targets.count) { index in
            let target = targets[index]
            let resized =
                target.width == canvas.width && target.height == canvas.height
                ? canvas : Lanczos.resize(linear!, width: target.width, height: target.height).rgba
            let region =
                previous[index].flatMap { Self.changed(from: $0, to: resized) }
                ?? (first ? (0, 0, resized.width, resized.height) : (0, 0, 1, 1))
            let over = previous[index].flatMap {
                target.layout.hasTransparent ? Self.over(resized, previous: $0, region: region) : nil
            }
            let data =
                target.png ? try PNGWriter.imageData(over ?? Self.crop(resized, region), layout: target.layout) : []
            // WebP frames sit at even offsets: the region grows left and up by a pixel where it must.
            let even = (
                x: region.x & ~1, y: region.y & ~1, width: region.width + region.x % 2,
                height: region.height + region.y % 2
            )
            let evenOver = previous[index].flatMap { Self.over(resized, previous: $0, region: even) }
            let frame =
                target.webp ? try WebPCodec.encode(evenOver ?? Self.crop(resized, even), settings[index]) : []
            return (resized, region, data, over != nil, even, frame, evenOver != nil)
        }
        for (index, (resized, region, data, isOver, even, frame, evenOver)) in made.enumerated() {
            self.previous[index] = resized
            if targets[index].png { append(index, region: region, data: data, control: control, over: isOver) }
            if targets[index].webp {
                webp[index].append(.init(data: frame, x: even.x, y: even.y, durationMs: durationMs, blend: evenOver))
                // Lossless or lossy, as the first frame (the whole picture) came out smaller: the others follow it.
                if first, settings[index].losslessWhenSmaller {
                    webpSettings[index] =
                        WebPCodec.isLossless(frame)
                        ? .init(quality: 25, method: settings[index].method, lossless: true)
                        : .init(quality: settings[index].quality, method: settings[index].method)
                }
            }
        }
        lastCanvas = canvas.pixels
    }

    /// Ends the animation: a last frame shorter than `minFrameMs` is left out, its time given to the frame before.
    mutating func finish() {
        guard minFrameMs > 0, keptDurationMs < minFrameMs, kept.count > 1 else { return }
        for index in targets.indices {
            if webp[index].count > 1 {
                webp[index][webp[index].count - 2].durationMs += webp[index].removeLast().durationMs
            }
            if png[index].count > 1 {
                let last = png[index].removeLast()
                png[index][png[index].count - 1].delayNumerator = UInt16(
                    clamping: Int(png[index][png[index].count - 1].delayMs.rounded()) + Int(last.delayMs.rounded()))
                png[index][png[index].count - 1].delayDenominator = 1000
            }
        }
        kept.removeLast()
    }

    private mutating func append(
        _ index: Int, region: (x: Int, y: Int, width: Int, height: Int), data: [UInt8], control: Animation.Frame,
        over: Bool = false
    ) {
        var frame = APNGEncoder.EncodedFrame(
            data: data, width: region.width, height: region.height,
            delayNumerator: control.delayNumerator, delayDenominator: control.delayDenominator)
        frame.blend = over ? 1 : 0
        if stride > 1 || minFrameMs > 0 {
            (frame.delayNumerator, frame.delayDenominator) = (UInt16(clamping: Int(control.delayMs.rounded())), 1000)
        }
        (frame.x, frame.y) = (region.x, region.y)
        png[index].append(frame)
    }

    /// The file of `format` at target `index`, playing `loops` times.
    func assemble(_ index: Int, format: ImageFormat, loops: Int) throws -> [UInt8] {
        let (width, height) = (targets[index].width, targets[index].height)
        return format == .webp
            ? try WebPAnimation.assemble(width: width, height: height, frames: webp[index], loops: loops)
            : APNGEncoder.assemble(
                width: width, height: height, frames: png[index], loops: UInt32(loops), layout: targets[index].layout)
    }

    /// The smallest rectangle holding every pixel that differs between `old` and `new`; nil when none does.
    static func changed(from old: RGBAImage, to new: RGBAImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        let width = new.width
        var (top, bottom, left, right) = (Int.max, -1, Int.max, -1)
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                for y in 0..<new.height {
                    let row = y * width * 4
                    guard !a[row..<(row + width * 4)].elementsEqual(b[row..<(row + width * 4)]) else { continue }
                    (top, bottom) = (min(top, y), y)
                    for x in 0..<width
                    where a[row + x * 4..<row + x * 4 + 4].elementsEqual(b[row + x * 4..<row + x * 4 + 4]) == false {
                        (left, right) = (min(left, x), max(right, x))
                    }
                }
            }
        }
        guard bottom >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    static func crop(_ image: RGBAImage, _ region: (x: Int, y: Int, width: Int, height: Int)) -> RGBAImage {
        guard region != (0, 0, image.width, image.height) else { return image }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(region.width * region.height * 4)
        for row in region.y..<(region.y + region.height) {
            let start = (row * image.width + region.x) * 4
            pixels += image.pixels[start..<(start + region.width * 4)]
        }
        return RGBAImage(width: region.width, height: region.height, pixels: pixels)
    }
}

extension APNGEncoder.EncodedFrame {
    /// Shows for `control`'s delay longer, in milliseconds (a kept frame's delay when `stride` > 1 already is).
    mutating func delay(adding control: Animation.Frame) {
        delayNumerator = UInt16(clamping: Int(delayNumerator) + Int(control.delayMs.rounded()))
    }
}

extension APNGEncoder.EncodedFrame {
    /// The delay in milliseconds (a zero denominator means hundredths).
    var delayMs: Double { Double(delayNumerator) * 1000 / Double(delayDenominator == 0 ? 100 : delayDenominator) }
}
