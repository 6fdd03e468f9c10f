/// An APNG's animated renditions, made one canvas at a time as the compositor plays the frames: each canvas is resized
/// to every edge at once and dropped, so memory holds one canvas and the previous picture at each edge, never the
/// whole animation (100 full canvases of 618 x 618 were 146 MiB). Each frame after the first is encoded as the
/// rectangle that changed since the frame before (as the source was), not the whole picture: a file of one-pixel
/// frames stays small at every size. With a `stride` of k only every k-th frame is kept, showing for the delays of the
/// k frames it stands for, so the animation plays for as long at a lower frame rate.
struct AnimatedRenditions {
    struct Target {
        let width: Int
        let height: Int
    }

    let targets: [Target]
    let stride: Int
    private(set) var frames: [[APNGEncoder.EncodedFrame]]
    private var previous: [RGBAImage?]
    private var lastCanvas: [UInt8]?
    private var played = 0

    init(targets: [Target], stride: Int = 1) {
        (self.targets, self.stride) = (targets, stride)
        frames = Array(repeating: [], count: targets.count)
        previous = Array(repeating: nil, count: targets.count)
    }

    /// Adds the picture `canvas` shows for `control`'s delay, at every target size.
    mutating func add(_ canvas: RGBAImage, control: Animation.Frame) throws {
        defer { played += 1 }
        guard played % stride == 0 else {
            // A frame left out: the frame kept before it shows for its delay too.
            for index in targets.indices where !frames[index].isEmpty {
                frames[index][frames[index].count - 1].delay(adding: control)
            }
            return
        }
        let first = lastCanvas == nil
        if !first, canvas.pixels == lastCanvas {
            // Nothing moved: one unchanged pixel holds the picture for this frame's delay.
            for index in targets.indices {
                guard let picture = previous[index] else { continue }
                append(index, region: (0, 0, 1, 1), data: try PNGWriter.imageData(Self.crop(picture, (0, 0, 1, 1))), control: control)
            }
            return
        }
        let linear = LinearImage(canvas)
        let (targets, previous) = (self.targets, self.previous)
        // Resize, find what changed and compress it: each size on a core of its own.
        let made = try Renditions.parallel(targets.count) { index in
            let resized = Lanczos.resize(linear, width: targets[index].width, height: targets[index].height).rgba
            let region = previous[index].flatMap { Self.changed(from: $0, to: resized) }
                ?? (first ? (0, 0, resized.width, resized.height) : (0, 0, 1, 1))
            return (resized, region, try PNGWriter.imageData(Self.crop(resized, region)))
        }
        for (index, (resized, region, data)) in made.enumerated() {
            self.previous[index] = resized
            append(index, region: region, data: data, control: control)
        }
        lastCanvas = canvas.pixels
    }

    private mutating func append(_ index: Int, region: (x: Int, y: Int, width: Int, height: Int), data: [UInt8], control: Animation.Frame) {
        var frame = APNGEncoder.EncodedFrame(data: data, width: region.width, height: region.height,
                                             delayNumerator: control.delayNumerator, delayDenominator: control.delayDenominator)
        if stride > 1 { (frame.delayNumerator, frame.delayDenominator) = (UInt16(clamping: Int(control.delayMs.rounded())), 1000) }
        (frame.x, frame.y) = (region.x, region.y)
        frames[index].append(frame)
    }

    /// The APNG at target `index`, playing `loops` times.
    func assemble(_ index: Int, loops: Int) -> [UInt8] {
        APNGEncoder.assemble(width: targets[index].width, height: targets[index].height, frames: frames[index], loops: UInt32(loops))
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
                    for x in 0..<width where a[row + x * 4..<row + x * 4 + 4].elementsEqual(b[row + x * 4..<row + x * 4 + 4]) == false {
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
