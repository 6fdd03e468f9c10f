import Foundation
import NIOCore
import Synchronization

/// Closes a connection whose answer makes no progress: its channel stays unwritable (more queued than NIO's high
/// watermark, the kernel's send buffer full) for `timeout`. Hummingbird's idle timer is off while a response is in
/// progress, so without this a client that stops reading holds its answer's buffers, and a bundle's, an export's or
/// an event stream's place, for as long as it likes. An answer still being read, however slowly, is writable again
/// now and then and is never closed; an idle keep-alive connection is writable and is left to the idle timer.
///
/// It also caps the connection's kernel send buffer (`sendBuffer` bytes; the kernel doubles it for its own book-keeping),
/// so that a reader who stops holds at most that much of the kernel's memory, and a writer waiting on it is blocked
/// (its answer's place held) instead of its bytes queued out of sight.
package final class WriteStallHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = Any

    private let timeout: TimeAmount
    private let sendBuffer: Int
    private let closed: (@Sendable () -> Void)?
    private var check: Scheduled<Void>?

    package init(timeout: TimeAmount, sendBuffer: Int, closed: (@Sendable () -> Void)? = nil) {
        (self.timeout, self.sendBuffer, self.closed) = (timeout, sendBuffer, closed)
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        let option = ChannelOptions.Types.SocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SO_SNDBUF)
        _ = context.channel.setOption(option, value: SocketOptionValue(sendBuffer))
    }

    package func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            check?.cancel()
            check = nil
        } else if check == nil {
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            check = context.eventLoop.scheduleTask(in: timeout) {
                let (handler, context) = loopBound.value
                handler.check = nil
                guard !context.channel.isWritable, context.channel.isActive else { return }
                handler.closed?()
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }
}
