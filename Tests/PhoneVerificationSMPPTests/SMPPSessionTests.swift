import Foundation
import NIOPosix
import PhoneVerificationSMPP
import Testing

/// How a session ends, against smpp34's SMSC behind smsc.py's relay (which names every PDU the
/// client sends: smpp34 reports an unbind and a dropped connection alike).
@Suite(.serialized, .enabled(if: SMPPPython.shouldRun, "smpp34 is not installed (.ci/smpp.sh); skipped, under CI=true they fail"))
struct SMPPSessionTests {
    static let message = SMPPShortMessage(source: try! SMPPAddressing.source("Acme"),
                                          destination: try! SMPPAddressing.destination("+905321234567"),
                                          shortMessage: Array("Your Acme code is 482913".utf8))

    @Test func shutdownWaitsForTheAnswersInFlightThenUnbinds() async throws {
        try await SMSCProcess.with(relay: true) { smsc in
            try smsc.command(["cmd": "mode", "delay_ms": 1000])
            try await smsc.waitFor("mode")
            let client = SMPPClient(configuration: configuration(port: smsc.port))
            await client.start()
            let submits = (0..<3).map { _ in Task { try await client.submit(Self.message) } }
            // All three written; the SMSC answers each a second later.
            try await smsc.waitFor("pdu", count: 4, timeout: .seconds(60))
            await client.shutdown()
            for submit in submits {
                let id = try await submit.value
                #expect(!id.isEmpty, "answered before the unbind")
            }
            await #expect { try await client.submit(Self.message) } throws: { ($0 as? SMPPError)?.code == .shutDown }
            try await smsc.waitFor("unbound")
            #expect(smsc.clientCommands == ["bind_transceiver", "submit_sm", "submit_sm", "submit_sm", "unbind"])
            #expect(smsc.events("submit_sm").count == 3, "nothing after the shutdown reached the SMSC")
        }
    }

    @Test func anUnbindFromTheSMSCIsAnsweredAndTheClientBindsAgain() async throws {
        try await SMSCProcess.with(relay: true) { smsc in
            let client = SMPPClient(configuration: configuration(port: smsc.port))
            let log = EventLog(client)
            await client.start()
            try await smsc.waitFor("bound")
            try smsc.command(["cmd": "unbind"])
            try await smsc.waitFor("bound", count: 2, timeout: .seconds(20))
            let id = try await client.submit(Self.message)
            #expect(!id.isEmpty)
            let commands = smsc.events("pdu").map { "\($0["connection"] ?? "")/\($0["command"] ?? "")" }
            #expect(commands.prefix(3) == ["1/bind_transceiver", "1/unbind_resp", "2/bind_transceiver"])
            #expect(commands.last == "2/submit_sm")
            await client.shutdown()
            await log.task.value
            #expect(log.events.withLock { $0.contains { if case .disconnected = $0 { true } else { false } } })
        }
    }

    @Test func aTransmitterAndReceiverPairSubmitsOnOneAndReceivesOnTheOther() async throws {
        try await SMSCProcess.with(relay: true) { smsc in
            let client = SMPPClient(configuration: configuration(port: smsc.port) { $0.bindType = .pair })
            let log = EventLog(client)
            await client.start()
            let bound = try await smsc.waitFor("bound", count: 2)
            #expect(Set(bound.map { $0["receives"] as? Bool }) == [true, false])
            let sender = SMPPSender(client: client, options: try .init(source: "Acme"))
            try await sender.send(outgoing("Your Acme code is 482913", verificationID: "v-pair-1"))
            try await log.waitUntil { log.receipts.count == 1 }
            #expect(log.receipts.first?.1?.verificationID == "v-pair-1", "the receipt came on the receiver and found its part")
            try smsc.command(["cmd": "deliver", "tag": "mo", "source_addr": "905321234567", "source_addr_ton": 1, "source_addr_npi": 1,
                              "destination_addr": "12345", "short_message": Array("STOP".utf8).hex])
            try await log.waitUntil { log.messages.count == 1 }

            // The SMSC drops the receiver: it binds again with the same backoff; the transmitter stays.
            try smsc.command(["cmd": "unbind", "receiving": true])
            let rebound = try await smsc.waitFor("bound", count: 3, timeout: .seconds(20))
            #expect(rebound.last?["receives"] as? Bool == true)
            try await sender.send(outgoing("Your Acme code is 739164", verificationID: "v-pair-2"))
            try await log.waitUntil { log.receipts.count == 2 }
            #expect(log.receipts.last?.1?.verificationID == "v-pair-2")
            await client.shutdown()

            var byConnection: [Int: [String]] = [:]
            for event in smsc.events("pdu") {
                byConnection[event["connection"] as! Int, default: []].append(event["command"] as! String)
            }
            let transmitter = try #require(byConnection.values.first { $0.first == "bind_transmitter" })
            #expect(transmitter == ["bind_transmitter", "submit_sm", "submit_sm", "unbind"])
            let receivers = byConnection.sorted { $0.key < $1.key }.map(\.value).filter { $0.first == "bind_receiver" }
            #expect(receivers == [["bind_receiver", "deliver_sm_resp", "deliver_sm_resp", "unbind_resp"],
                                  ["bind_receiver", "deliver_sm_resp", "unbind"]])
        }
    }
}

@Test func bindTrxAndPairFromTheLocation() throws {
    #expect(try SMPPClient.Configuration(url: "smpp://esme:pw@h?source=Acme").bindType == .transceiver)
    #expect(try SMPPClient.Configuration(url: "smpp://esme:pw@h?bind=trx").bindType == .transceiver)
    #expect(try SMPPClient.Configuration(url: "smpp://esme:pw@h?bind=pair").bindType == .pair)
    #expect(throws: SMPPError.self) { try SMPPClient.Configuration(url: "smpp://esme:pw@h?bind=receiver") }
}

/// A task that prefers the client's task executor runs on an event loop (the client's), not on
/// Swift's global executor, so its submits do not cross threads.
@Test func theTaskExecutorRunsTasksOnTheClientsEventLoop() async throws {
    let client = SMPPClient(configuration: SMPPClient.Configuration(host: "127.0.0.1", port: 9, systemID: "esme", password: "pw"))
    let onLoop = await withTaskExecutorPreference(client.taskExecutor) { MultiThreadedEventLoopGroup.currentEventLoop != nil }
    let elsewhere = await Task.detached { MultiThreadedEventLoopGroup.currentEventLoop != nil }.value
    #expect(onLoop && !elsewhere)
}
