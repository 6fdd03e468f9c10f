import StickerImage
import Testing

/// WebPs that lie, overflow or are cut short, and the codes they must be refused with.
package enum HostileWebP: String, CaseIterable, CustomTestStringConvertible {
    case truncated, trailingBytes, riffSizeTooLarge, garbageImageData, canvasHuge, tooSmall, tooManyFrames, tooLong,
        frameOutsideCanvas, tooLarge, stillCanvasLie

    package var testDescription: String { rawValue }

    package var codes: Set<String> {
        switch self {
        case .truncated, .trailingBytes, .riffSizeTooLarge, .garbageImageData, .stillCanvasLie: ["corrupt_image"]
        case .canvasHuge, .tooSmall: ["dimensions_out_of_range"]
        case .tooManyFrames: ["too_many_frames"]
        case .tooLong: ["animation_too_long"]
        case .frameOutsideCanvas: ["invalid_animation", "corrupt_image"]
        case .tooLarge: ["too_large"]
        }
    }

    package var bytes: [UInt8] {
        let still = WebPSamples.still()
        let animation = WebPSamples.animation(side: 300, delays: [100, 100, 100], loops: 0)
        switch self {
        case .truncated:
            return Array(still.prefix(still.count - 100))
        case .trailingBytes:
            return still + [0x00, 0x01, 0x02, 0x03]
        case .riffSizeTooLarge:
            var bytes = still
            bytes.replaceSubrange(4..<8, with: WebPSamples.littleEndian32(still.count))
            return bytes
        case .garbageImageData:
            var bytes = still
            for index in 40..<min(bytes.count, 400) { bytes[index] = 0xFF }
            return bytes
        case .canvasHuge:
            // The ANIM file's canvas says 16000 x 16000; every frame lies inside it.
            return WebPSamples.assemble(
                WebPSamples.chunks(animation).map { chunk in
                    guard chunk.type == "VP8X" else { return chunk }
                    return (
                        chunk.type,
                        Array(chunk.data.prefix(4)) + WebPSamples.littleEndian24(15_999)
                            + WebPSamples.littleEndian24(15_999)
                    )
                })
        case .tooSmall:
            return try! WebPCodec.encode(WebPSamples.picture(side: 200, shade: 1))
        case .tooManyFrames:
            return WebPSamples.animation(side: 300, delays: Array(repeating: 20, count: 101), loops: 0)
        case .tooLong:
            return WebPSamples.animation(side: 300, delays: [6000, 6000], loops: 0)
        case .frameOutsideCanvas:
            // The second frame moved to 100,100: its 300 x 300 picture then ends past the 300 x 300 canvas.
            var seen = 0
            return WebPSamples.assemble(
                WebPSamples.chunks(animation).map { chunk in
                    guard chunk.type == "ANMF" else { return chunk }
                    seen += 1
                    guard seen == 2 else { return chunk }
                    return (
                        chunk.type,
                        WebPSamples.littleEndian24(50) + WebPSamples.littleEndian24(50) + Array(chunk.data.dropFirst(6))
                    )
                })
        case .tooLarge:
            return still + [UInt8](repeating: 0, count: 500 * 1024)
        case .stillCanvasLie:
            // A still whose VP8X canvas claims 618 x 618 around a 408 x 408 image.
            let chunks = WebPSamples.chunks(still)
            return WebPSamples.assemble(
                [("VP8X", [0x10, 0, 0, 0] + WebPSamples.littleEndian24(617) + WebPSamples.littleEndian24(617))] + chunks
            )
        }
    }
}
