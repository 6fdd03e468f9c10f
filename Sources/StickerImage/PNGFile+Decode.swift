extension PNGFile {
    /// What `decodeAllFrames` hands over as it decodes: the default image (IDAT), and each frame of an animation.
    public enum Decoded {
        case defaultImage(RGBAImage)
        case frame(Int, RGBAImage)
    }

    /// Decodes every frame through libpng, one at a time: first each zlib stream is measured against the size
    /// its frame needs (so no bomb is inflated), then libpng fully decodes it (CRCs, zlib, filters). Each decoded
    /// picture goes to `each`, in file order, and is not kept.
    /// `maxPixels` bounds a single frame, `rules.maxDecodedBytes` all frames together. With `sRGB`, pictures of a file
    /// with an embedded ICC profile are converted to sRGB (`SRGBConversion`), as renditions need them.
    public func decodeAllFrames(
        maxPixels: Int, rules: StickerRules, sRGB: Bool = false,
        each: (Decoded) -> Void = { _ in }
    ) throws(StickerRejection) {
        let conversion = sRGB ? srgbConversion : nil
        func deliver(_ decoded: Decoded) {
            guard let conversion else { return each(decoded) }
            switch decoded {
            case .defaultImage(let image): each(.defaultImage(conversion.apply(image)))
            case .frame(let index, let image): each(.frame(index, conversion.apply(image)))
            }
        }
        let frames = animation?.frames ?? []
        let decodedBytes = frames.isEmpty ? width * height * 4 : frames.reduce(0) { $0 + $1.width * $1.height * 4 }
        guard decodedBytes <= rules.maxDecodedBytes else {
            throw .tooManyFrames(
                "its \(frameCount) frames decode to \(decodedBytes) bytes; the limit is \(rules.maxDecodedBytes)")
        }
        try checkImageData(imageData, width: width, height: height, what: "the image")
        let defaultImage = try PNGCodec.decode(bytes, maxPixels: maxPixels)
        deliver(.defaultImage(defaultImage))
        for (index, frame) in frames.enumerated() {
            if frame.isDefaultImage {
                deliver(.frame(index, defaultImage))
                continue
            }
            try checkImageData(frame.data, width: frame.width, height: frame.height, what: "frame \(index)")
            do {
                deliver(.frame(index, try PNGCodec.decode(standalone(frame), maxPixels: maxPixels)))
            } catch {
                throw .corrupt("frame \(index): \(error.detail)")
            }
        }
    }

    /// The zlib stream must inflate to exactly the bytes a `width` x `height` image needs.
    private func checkImageData(
        _ segments: [Range<Int>], width: Int, height: Int, what: String
    ) throws(StickerRejection) {
        let expected = header.rawSize(width: width, height: height)
        switch Inflate.measure(bytes, segments: segments, limit: expected) {
        case .complete(let size) where size == expected: return
        case .complete(let size):
            throw .corrupt("\(what) holds \(size) bytes of pixel data where \(expected) are needed")
        case .overLimit: throw .corrupt("\(what) inflates past the \(expected) bytes it needs (a decompression bomb)")
        case .corrupt(let reason): throw .corrupt("\(what): \(reason)")
        }
    }

    /// A frame as a PNG of its own: IHDR at the frame's size, the file's colour and palette chunks (so every frame is
    /// read in the same colour space as the default image), its fdAT data as IDAT.
    func standalone(_ frame: Animation.Frame) -> [UInt8] {
        var out = ImageFormat.pngSignature
        func append(_ type: String, _ data: [UInt8]) { out += PNGChunkWalker.encode(type: type, data: data) }
        var ihdr = Array(bytes[chunks[0].data])
        ihdr.replaceSubrange(0..<8, with: bigEndian(UInt32(frame.width)) + bigEndian(UInt32(frame.height)))
        append("IHDR", ihdr)
        let carried: Set<String> = ["cHRM", "gAMA", "iCCP", "sBIT", "sRGB", "PLTE", "tRNS"]
        for chunk in chunks where carried.contains(chunk.type) {
            out += bytes[chunk.whole]
        }
        for segment in frame.data { append("IDAT", Array(bytes[segment])) }
        append("IEND", [])
        return out
    }

    /// The file as stored and served: without the chunks that can leak who made it, where or when
    /// (eXIf, tEXt, iTXt, zTXt, tIME). Every other chunk is copied byte for byte, image data included.
    public var strippedBytes: [UInt8] {
        let privacy: Set<String> = ["eXIf", "tEXt", "iTXt", "zTXt", "tIME"]
        guard chunks.contains(where: { privacy.contains($0.type) }) else { return bytes }
        var out = ImageFormat.pngSignature
        for chunk in chunks where !privacy.contains(chunk.type) { out += bytes[chunk.whole] }
        return out
    }
}

func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}
