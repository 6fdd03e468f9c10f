import Foundation

/// Downscaling with a Lanczos-3 filter, separably (rows, then columns), on `LinearImage`s.
///
/// Lanczos-3 rather than an area (box) filter: it keeps edges crisp where a box filter blurs them and aliases less
/// than bilinear, and at the factors stickers need (618 to 100 px is 6.2x) its support grows with the factor, so
/// every source pixel contributes, as with an area filter. It is what libvips' thumbnail uses, the quality reference.
/// Weights are computed once per output row or column, never per pixel.
public enum Lanczos {
    /// `image` resampled to `width` x `height`.
    public static func resize(_ image: LinearImage, width: Int, height: Int) -> LinearImage {
        guard width != image.width || height != image.height else { return image }
        let horizontal = Weights(from: image.width, to: width)
        let vertical = Weights(from: image.height, to: height)
        var rows = [SIMD4<Float>](repeating: .zero, count: width * image.height)
        image.pixels.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { target in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<image.height {
                        let row = source.baseAddress! + y * image.width
                        let out = target.baseAddress! + y * width
                        for x in 0..<width { out[x] = horizontal.apply(x, row, weights: weights) }
                    }
                }
            }
        }
        // Columns a whole row at a time: each output row is a weighted sum of input rows, read in order.
        var result = [SIMD4<Float>](repeating: .zero, count: width * height)
        rows.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                vertical.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<height {
                        let out = target.baseAddress! + y * width
                        for tap in 0..<vertical.count[y] {
                            let weight = weights[vertical.offset[y] + tap]
                            let row = source.baseAddress! + (vertical.first[y] + tap) * width
                            for x in 0..<width { out[x] += row[x] * weight }
                        }
                    }
                }
            }
        }
        return LinearImage(width: width, height: height, pixels: result)
    }

    /// The taps of every output position: a first input index and normalised weights, stored flat.
    struct Weights {
        let first: [Int]
        let count: [Int]
        let offset: [Int]
        let weights: [Float]

        init(from input: Int, to output: Int) {
            let scale = Double(input) / Double(output)
            // Shrinking widens the kernel by the factor, so that it averages every pixel it covers.
            let support = 3 * max(scale, 1)
            var first: [Int] = []
            var count: [Int] = []
            var offset: [Int] = []
            var weights: [Float] = []
            for position in 0..<output {
                let center = (Double(position) + 0.5) * scale - 0.5
                let low = max(0, Int((center - support).rounded(.up)))
                let high = min(input - 1, Int((center + support).rounded(.down)))
                var taps = (low...max(low, high)).map { Lanczos.kernel((Double($0) - center) / max(scale, 1)) }
                let sum = taps.reduce(0, +)
                if sum != 0 { taps = taps.map { $0 / sum } } else { taps = taps.map { _ in 1 / Double(taps.count) } }
                first.append(low)
                count.append(taps.count)
                offset.append(weights.count)
                weights.append(contentsOf: taps.map(Float.init))
            }
            (self.first, self.count, self.offset, self.weights) = (first, count, offset, weights)
        }

        /// The weighted sum for output `position` from the consecutive inputs at `source`.
        @inline(__always)
        func apply(
            _ position: Int, _ source: UnsafePointer<SIMD4<Float>>, weights: UnsafeBufferPointer<Float>
        ) -> SIMD4<Float> {
            var sum = SIMD4<Float>.zero
            let input = source + first[position]
            let weight = weights.baseAddress! + offset[position]
            for tap in 0..<count[position] { sum += input[tap] * weight[tap] }
            return sum
        }
    }

    /// sinc(x) sinc(x / 3) on (-3, 3).
    static func kernel(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        guard abs(x) < 3 else { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
