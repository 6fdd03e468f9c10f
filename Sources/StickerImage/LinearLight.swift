import Foundation

/// Pixels as the resampler works on them: linear light (the sRGB transfer function undone), alpha premultiplied,
/// one SIMD4<Float> per pixel (r, g, b, a), rows top to bottom.
///
/// Linear, because averaging sRGB values darkens detail (a fine black-and-white pattern would shrink to a grey darker
/// than its true mean of light); premultiplied, because a transparent pixel's hidden colour has no weight then and
/// cannot bleed into the edge of an opaque neighbour.
public struct LinearImage: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [SIMD4<Float>]

    public init(width: Int, height: Int, pixels: [SIMD4<Float>]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// From 8-bit sRGB RGBA (straight alpha).
    public init(_ image: RGBAImage) {
        width = image.width
        height = image.height
        let table = LinearLight.toLinear
        pixels = [SIMD4<Float>](unsafeUninitializedCapacity: image.width * image.height) { out, count in
            image.pixels.withUnsafeBufferPointer { bytes in
                for index in 0..<(image.width * image.height) {
                    let alpha = Float(bytes[index * 4 + 3]) * (1 / 255)
                    out[index] = SIMD4(
                        table[Int(bytes[index * 4])] * alpha, table[Int(bytes[index * 4 + 1])] * alpha,
                        table[Int(bytes[index * 4 + 2])] * alpha, alpha)
                }
            }
            count = image.width * image.height
        }
    }

    /// Back to 8-bit sRGB RGBA with straight alpha; a fully transparent pixel is transparent black.
    public var rgba: RGBAImage {
        let table = LinearLight.toSRGB
        let scale = Float(LinearLight.toSRGB.count - 1)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            pixels.withUnsafeBufferPointer { pixels in
                for index in 0..<pixels.count {
                    let pixel = pixels[index]
                    let alpha = min(max(pixel.w, 0), 1)
                    let a8 = UInt8((alpha * 255).rounded())
                    guard a8 > 0 else { continue }
                    let colour = (pixel / alpha).clamped(lowerBound: .zero, upperBound: .one) * scale
                    out[index * 4] = table[Int(colour.x.rounded())]
                    out[index * 4 + 1] = table[Int(colour.y.rounded())]
                    out[index * 4 + 2] = table[Int(colour.z.rounded())]
                    out[index * 4 + 3] = a8
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: bytes)
    }
}

/// The sRGB transfer function (IEC 61966-2-1) as tables.
enum LinearLight {
    /// 8-bit sRGB to linear light.
    static let toLinear: [Float] = (0...255).map { value in
        let c = Double(value) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    /// Linear light, quantised to 16 bits, to 8-bit sRGB: fine enough that no sRGB level is ever missed.
    static let toSRGB: [UInt8] = (0...65535).map { value in
        let l = Double(value) / 65535
        let c = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
        return UInt8(max(0, min(255, (c * 255).rounded())))
    }
}
