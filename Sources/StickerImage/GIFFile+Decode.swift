import CGIF

extension GIFFile {
    /// Decodes every frame's LZW data with giflib and plays the frames onto the canvas (`APNGCompositor`, with the
    /// GIF meaning `Animation.Frame(gifFrame:)` gives them), handing each canvas as shown to `each` and keeping none.
    /// The screen is bounded by `maxPixels` and all canvases together by `rules.maxDecodedBytes` before anything is
    /// decoded. A pixel whose index is past its colour table is refused, as a truncated or undecodable frame is.
    public func decodeAllFrames(
        maxPixels: Int, rules: StickerRules, each: (Int, RGBAImage) -> Void = { _, _ in }
    ) throws(StickerRejection) {
        try rules.checkDecodable(width: width, height: height, frames: frameCount, maxPixels: maxPixels)
        var compositor = APNGCompositor(width: width, height: height)
        for (index, image) in images.enumerated() {
            let indices = try decode(image, index: index)
            let frame = try colours(of: indices, image: image, index: index)
            each(index, compositor.render(image.control, image: frame, index: index))
        }
    }

    /// The frame's palette indices, row by row from the top, through giflib: the frame alone, as a GIF of its own
    /// (a screen its size, its colour table as the local one, its LZW data as it is in the file).
    private func decode(_ image: Image, index: Int) throws(StickerRejection) -> [UInt8] {
        let (w, h) = (image.control.width, image.control.height)
        let tableBits = UInt8(max(0, (image.palette.count / 3).trailingZeroBitCount - 1))
        var file = Array("GIF89a".utf8) + [UInt8(w & 0xFF), UInt8(w >> 8), UInt8(h & 0xFF), UInt8(h >> 8), 0, 0, 0]
        file += [0x2C, 0, 0, 0, 0, UInt8(w & 0xFF), UInt8(w >> 8), UInt8(h & 0xFF), UInt8(h >> 8)]
        file += [0x80 | tableBits] + bytes[image.palette] + bytes[image.data] + [0x3B]
        var rows = [UInt8](repeating: 0, count: w * h)
        let decoded = file.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { target in Self.giflib(source, into: target, width: w, height: h) }
        }
        guard decoded else { throw .corrupt("frame \(index)'s image data does not decode (giflib)") }
        guard image.interlaced else { return rows }
        // Interlaced rows arrive in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd
        // from 1.
        var order: [Int] = []
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { order += Swift.stride(from: start, to: h, by: step) }
        var out = [UInt8](repeating: 0, count: w * h)
        for (line, row) in order.enumerated() {
            out[(row * w)..<(row * w + w)] = rows[(line * w)..<(line * w + w)]
        }
        return out
    }

    /// The frame as RGBA: its colours, a transparent index as transparent black.
    private func colours(of indices: [UInt8], image: Image, index: Int) throws(StickerRejection) -> RGBAImage {
        let count = image.palette.count / 3
        var pixels = [UInt8](repeating: 0, count: indices.count * 4)
        let base = image.palette.lowerBound
        for (at, value) in indices.enumerated() {
            let colour = Int(value)
            guard colour < count else {
                throw .corrupt("frame \(index) uses colour \(colour) of a \(count)-colour table")
            }
            guard colour != image.transparentIndex else { continue }
            let source = base + colour * 3
            pixels[at * 4] = bytes[source]
            pixels[at * 4 + 1] = bytes[source + 1]
            pixels[at * 4 + 2] = bytes[source + 2]
            pixels[at * 4 + 3] = 255
        }
        return RGBAImage(width: image.control.width, height: image.control.height, pixels: pixels)
    }

    /// Reads the one image of the GIF in `source` into `target`, a line at a time; false on any giflib error.
    private static func giflib(
        _ source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) -> Bool {
        var cursor = GIFCursor(base: source.baseAddress!, count: source.count)
        return withUnsafeMutablePointer(to: &cursor) { cursor in
            var error: Int32 = 0
            guard let gif = DGifOpen(cursor, gifRead, &error) else { return false }
            defer { DGifCloseFile(gif, &error) }
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK, record == IMAGE_DESC_RECORD_TYPE,
                DGifGetImageDesc(gif) == GIF_OK
            else { return false }
            for row in 0..<height {
                guard DGifGetLine(gif, target.baseAddress! + row * width, Int32(width)) == GIF_OK else { return false }
            }
            return true
        }
    }
}

/// Where giflib's reads are in the bytes it is given.
private struct GIFCursor {
    let base: UnsafePointer<UInt8>
    let count: Int
    var offset = 0
}

/// giflib's input function: copies up to `length` bytes from the cursor in the file's user data.
private func gifRead(
    _ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?,
    _ length: Int32
) -> Int32 {
    guard let gif, let buffer, let user = gif.pointee.UserData else { return 0 }
    let cursor = user.assumingMemoryBound(to: GIFCursor.self)
    let count = min(Int(length), cursor.pointee.count - cursor.pointee.offset)
    guard count > 0 else { return 0 }
    buffer.update(from: cursor.pointee.base + cursor.pointee.offset, count: count)
    cursor.pointee.offset += count
    return Int32(count)
}
