import CLCMS2
import CLibPNG

/// An embedded ICC profile, applied with Little CMS: pixels read in the profile's colour space (Display P3, as a Mac
/// saves screenshots and exports) become sRGB, what every rendition is and every sticker app shows. libpng's simplified
/// API reads the samples as they are, so without this a P3 sticker's renditions looked washed out beside the original.
final class SRGBConversion {
    private let transform: cmsHTRANSFORM

    /// The conversion from `profile` (an ICC profile's bytes) to sRGB; nil for a profile Little CMS cannot read or that
    /// is not an RGB one (such files are read as sRGB, as before).
    init?(profile: [UInt8]) {
        guard let input = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else { return nil }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == cmsSigRgbData, let output = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        guard
            let transform = cmsCreateTransform(
                input, STICKER_TYPE_RGBA_8, output, STICKER_TYPE_RGBA_8, cmsUInt32Number(INTENT_PERCEPTUAL),
                cmsUInt32Number(cmsFLAGS_COPY_ALPHA))
        else { return nil }
        self.transform = transform
    }

    deinit {
        cmsDeleteTransform(transform)
    }

    /// `image` in sRGB, alpha untouched.
    func apply(_ image: RGBAImage) -> RGBAImage {
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                cmsDoTransform(
                    transform, source.baseAddress, target.baseAddress, cmsUInt32Number(image.width * image.height))
            }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: out)
    }
}

extension PNGFile {
    /// The conversion to sRGB the file's iCCP chunk asks for, if it has one Little CMS can use. The validator has
    /// already bounded the profile (it inflates to at most 1 MiB).
    var srgbConversion: SRGBConversion? {
        guard let chunk = chunks.first(where: { $0.type == "iCCP" }) else { return nil }
        let data = bytes[chunk.data]
        // A name of 1-79 bytes, a NUL, the compression method (0), then the zlib stream of the profile.
        guard let nul = data.firstIndex(of: 0), nul + 2 <= data.endIndex else { return nil }
        let stream = Array(data[(nul + 2)...])
        var size = uLongf(1 << 20)
        var profile = [UInt8](repeating: 0, count: Int(size))
        guard uncompress(&profile, &size, stream, uLong(stream.count)) == Z_OK else { return nil }
        return SRGBConversion(profile: Array(profile.prefix(Int(size))))
    }
}
