/// Plays an APNG's frames onto its canvas as the APNG specification says, giving the full picture shown at each
/// frame: a frame is drawn at its offset (replacing the region, or source-over for blend op 1), shown, then its region
/// is left (dispose op 0), cleared to transparent black (1) or restored to what it was before (2).
public struct APNGCompositor {
    public private(set) var canvas: RGBAImage
    private var pendingDispose: (frame: Animation.Frame, saved: [UInt8]?)?

    public init(width: Int, height: Int) {
        canvas = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// Draws frame `index` of `animation` (decoded as `image`) and returns the canvas as shown.
    public mutating func render(_ frame: Animation.Frame, image: RGBAImage, index: Int) -> RGBAImage {
        disposePrevious()
        // A first frame disposed to "previous" has no previous picture: it is cleared instead (APNG specification).
        let dispose = index == 0 && frame.dispose == 2 ? 1 : frame.dispose
        let saved = dispose == 2 ? region(frame) : nil
        draw(image, at: frame, over: frame.blend == 1)
        pendingDispose = (Animation.Frame(copying: frame, dispose: dispose), saved)
        return canvas
    }

    private mutating func disposePrevious() {
        guard let (frame, saved) = pendingDispose else { return }
        pendingDispose = nil
        switch frame.dispose {
        case 1: fill(frame) { _ in [0, 0, 0, 0] }
        case 2: if let saved { fill(frame) { saved[$0..<($0 + 4)] } }
        default: break
        }
    }

    private func region(_ frame: Animation.Frame) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(frame.width * frame.height * 4)
        for row in 0..<frame.height {
            let start = ((frame.y + row) * canvas.width + frame.x) * 4
            out += canvas.pixels[start..<(start + frame.width * 4)]
        }
        return out
    }

    /// Sets every pixel of the frame's region to `value(offset in the region's bytes)`.
    private mutating func fill<C: Collection<UInt8>>(_ frame: Animation.Frame, _ value: (Int) -> C) {
        for row in 0..<frame.height {
            for column in 0..<frame.width {
                let target = ((frame.y + row) * canvas.width + frame.x + column) * 4
                canvas.pixels.replaceSubrange(target..<(target + 4), with: value((row * frame.width + column) * 4))
            }
        }
    }

    private mutating func draw(_ image: RGBAImage, at frame: Animation.Frame, over: Bool) {
        let width = canvas.width
        canvas.pixels.withUnsafeMutableBufferPointer { target in
            image.pixels.withUnsafeBufferPointer { source in
                for row in 0..<min(frame.height, image.height) {
                    for column in 0..<min(frame.width, image.width) {
                        let s = (row * image.width + column) * 4
                        let t = ((frame.y + row) * width + frame.x + column) * 4
                        let sa = Int(source[s + 3])
                        if !over || sa == 255 {
                            for k in 0..<4 { target[t + k] = source[s + k] }
                        } else if sa > 0 {
                            // Source over, straight alpha, in 8-bit sRGB as browsers composite APNG.
                            let da = Int(target[t + 3])
                            let outA = sa * 255 + da * (255 - sa)  // alpha x 255
                            for k in 0..<3 {
                                let value =
                                    (Int(source[s + k]) * sa * 255 + Int(target[t + k]) * da * (255 - sa) + outA / 2)
                                    / outA
                                target[t + k] = UInt8(min(255, value))
                            }
                            target[t + 3] = UInt8((outA + 127) / 255)
                        }
                    }
                }
            }
        }
    }
}

extension Animation.Frame {
    /// The same frame with another dispose op.
    init(copying frame: Animation.Frame, dispose: UInt8) {
        self.init(
            width: frame.width, height: frame.height, x: frame.x, y: frame.y, delayMs: frame.delayMs,
            delayNumerator: frame.delayNumerator, delayDenominator: frame.delayDenominator, dispose: dispose,
            blend: frame.blend, isDefaultImage: frame.isDefaultImage, data: frame.data)
    }
}
