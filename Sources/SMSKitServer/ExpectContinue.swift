import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the request head arrives.
///
/// curl and other HTTP clients send the header with a large body (curl: over 1 MiB) and hold the
/// body back until the server says go on, or until their own timeout (curl's is 1 s). Hummingbird
/// does not answer it, so every large `check-stream` body waited out that timeout. The request is
/// passed on unchanged; a final response the route gives before reading the body (401, 413) is
/// still correct after a `100 Continue` (RFC 9110 section 10.1.1).
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), let expect = head.headerFields[.expect],
            expect.lowercased() == "100-continue"
        {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
