import CLCMS2
import CLibPNG
import Foundation
import TestSupport
import Testing

@testable import StickerImage

/// Colour as libpng reads it: 16-bit files are sRGB like any other, and every frame of an APNG is read in the file's
/// colour space, not just the first.
@Suite struct ColourTests {
    /// A `side` x `side` 16-bit greyscale PNG, every sample `value`, without gAMA or sRGB.
    static func grey16(side: Int, value: UInt16) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<side {
            raw.append(0)
            for _ in 0..<side { raw += [UInt8(value >> 8), UInt8(value & 0xFF)] }
        }
        var size = compressBound(UInt(raw.count))
        var deflated = [UInt8](repeating: 0, count: Int(size))
        _ = compress2(&deflated, &size, raw, UInt(raw.count), 9)
        let ihdr = Samples.bigEndian(UInt32(side)) + Samples.bigEndian(UInt32(side)) + [16, 0, 0, 0, 0]
        return Samples.assemble([("IHDR", ihdr), ("IDAT", Array(deflated.prefix(Int(size)))), ("IEND", [])])
    }

    @Test func sixteenBitGreyWithoutGammaIsReadAsSRGB() throws {
        // Action
        let image = try PNGCodec.decode(Self.grey16(side: 300, value: 0x8080), maxPixels: 1 << 20)
        // Check: 0x8080 is 128 in eight bits; read as linear light it came out at 186.
        #expect(Array(image.pixels.prefix(4)) == [128, 128, 128, 255])
        #expect(try StickerValidator().validate(Self.grey16(side: 300, value: 0x8080)).width == 300)
    }

    @Test func everyFrameOfAnAPNGIsReadWithTheFilesGamma() throws {
        // Setup: two identical frames, in a file whose gAMA says its samples are linear (gamma 1.0).
        let frame = APNGWriter.solid(300, 300, 128)
        let plain = APNGWriter(frames: [
            .init(image: frame, delayNumerator: 1, delayDenominator: 10),
            .init(image: frame, delayNumerator: 1, delayDenominator: 10),
        ]).bytes
        var chunks = Samples.chunks(plain)
        chunks.insert(("gAMA", Samples.bigEndian(100_000)), at: 1)
        let file = try PNGFile(Samples.assemble(chunks), rules: StickerRules())
        // Action
        var decoded: [RGBAImage] = []
        try file.decodeAllFrames(maxPixels: 1 << 20, rules: StickerRules()) { picture in
            switch picture {
            case .defaultImage(let image): decoded.append(image)
            case .frame(let index, let image) where index > 0: decoded.append(image)
            case .frame: break
            }
        }
        // Check: both converted from linear alike (128 linear is about 188 in sRGB), so the animation does not flicker.
        #expect(decoded.count == 2 && decoded[0] == decoded[1])
        #expect(decoded[0].pixels[0] > 170)
    }
}

/// Embedded ICC profiles: a Display P3 sticker's renditions are sRGB, as a reference conversion (libvips'
/// icc_transform, on Little CMS too) makes them.
@Suite struct ICCProfileTests {
    /// Display P3 as Apple defines it: P3 primaries, the D65 white, the sRGB curve; made and serialised by Little CMS.
    static func displayP3() -> [UInt8] {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
            Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)
        defer {
            cmsCloseProfile(profile)
            cmsFreeToneCurve(curve)
        }
        var size: cmsUInt32Number = 0
        _ = cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        _ = cmsSaveProfileToMem(profile, &bytes, &size)
        return bytes
    }

    /// A `side` x `side` sticker of one colour, with `profile` embedded as iCCP.
    static func sticker(_ rgb: [UInt8], side: Int = 300, profile: [UInt8]) -> [UInt8] {
        let png = PNGCodec.encode(
            RGBAImage(width: side, height: side, pixels: Array((0..<(side * side)).map { _ in rgb + [255] }.joined())))
        var size = compressBound(UInt(profile.count))
        var deflated = [UInt8](repeating: 0, count: Int(size))
        _ = compress2(&deflated, &size, profile, UInt(profile.count), 9)
        var chunks = Samples.chunks(png).filter { !["sRGB", "gAMA", "cHRM", "iCCP"].contains($0.type) }
        chunks.insert(("iCCP", Array("Display P3".utf8) + [0, 0] + deflated.prefix(Int(size))), at: 1)
        return Samples.assemble(chunks)
    }

    @Test func aDisplayP3StickerIsConvertedToSRGB() throws {
        // Setup: a saturated P3 orange, which sRGB can only just show.
        let bytes = Self.sticker([230, 80, 40], profile: Self.displayP3())
        // Action
        let (_, renditions) = try StickerValidator().validateRendering(bytes)
        let still = try #require(renditions.first { $0.edge == 200 && $0.still })
        let ours = Array(try PNGCodec.decode(still.bytes, maxPixels: 1 << 20).pixels.prefix(3))
        // Check: converted (read as sRGB it stayed 230, 80, 40 and looked washed out), and as the reference converts
        // it.
        #expect(ours[0] > 240 && ours[1] < 75, "\(ours)")
        let reference = try Self.vipsReference(bytes)
        if let reference {
            #expect(
                zip(ours, reference).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "ours \(ours), libvips \(reference)")
        }
        // A file without a profile is untouched.
        let plain = PNGCodec.encode(
            RGBAImage(
                width: 300, height: 300,
                pixels: Array((0..<90_000).map { _ in [230, 80, 40, 255] as [UInt8] }.joined())))
        let untouched = try #require(
            try StickerValidator().validateRendering(plain).1.first { $0.edge == 200 && $0.still })
        #expect(Array(try PNGCodec.decode(untouched.bytes, maxPixels: 1 << 20).pixels.prefix(3)) == [230, 80, 40])
    }

    /// The first pixel of `png` converted from its embedded profile to sRGB by `vips icc_transform`; nil without vips.
    static func vipsReference(_ png: [UInt8]) throws -> [UInt8]? {
        let vips = ["/usr/bin/vips", "/usr/local/bin/vips"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let vips else {
            print("vips is not installed: the reference comparison is skipped")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "icc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appending(path: "in.png")
        let output = folder.appending(path: "out.png")
        try Data(png).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: vips)
        process.arguments = [
            "icc_transform", input.path, output.path + "[strip]", "srgb", "--embedded", "--depth", "8",
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Issue.record("vips failed")
            return nil
        }
        return Array(try PNGCodec.decode(Array(try Data(contentsOf: output)), maxPixels: 1 << 20).pixels.prefix(3))
    }
}
