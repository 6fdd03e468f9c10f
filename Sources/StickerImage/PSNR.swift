import Foundation

extension RGBAImage {
    /// PSNR in dB against `other` (the same size), over premultiplied RGBA: what differs in a pixel's colour counts as
    /// much as the pixel is opaque, since a transparent pixel's colour is never seen. Infinite for equal pictures.
    public func psnr(_ other: RGBAImage) -> Double {
        precondition(width == other.width && height == other.height, "PSNR of pictures of different sizes")
        var squared = 0.0
        pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                for index in stride(from: 0, to: a.count, by: 4) {
                    let (alphaA, alphaB) = (Double(a[index + 3]), Double(b[index + 3]))
                    for k in 0..<3 {
                        let d = Double(a[index + k]) * alphaA / 255 - Double(b[index + k]) * alphaB / 255
                        squared += d * d
                    }
                    squared += (alphaA - alphaB) * (alphaA - alphaB)
                }
            }
        }
        let mse = squared / Double(max(1, pixels.count))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
