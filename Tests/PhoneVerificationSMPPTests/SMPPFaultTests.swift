import Foundation
import NIOCore
import NIOPosix
import PhoneVerification
import PhoneVerificationSMPP
import Synchronization
import Testing

/// Faults a real SMSC does not produce on request, from a scripted fake on loopback.
@Suite(.serialized) struct SMPPFaultTests {
    static func accept(_ pdu: SMPPPDU, id: String) -> [ScriptedSMSC.Reply] {
        [.write(try! SMPPPDU(sequenceNumber: pdu.sequenceNumber, body: .submitSMResp(messageID: id)).encoded())]
    }

    @Test func aSilentSMSCMeansNotBoundAndNothingSent() async throws {
        let fake = try await ScriptedSMSC { _, _ in [] }  // reads, never answers
        let client = SMPPClient(configuration: configuration(port: fake.port) {
            $0.responseTimeout = .milliseconds(200)
            $0.bindWaitTimeout = .milliseconds(800)
        })
        await client.start()
        let sender = SMPPSender(client: client, options: try .init(source: "Acme"))
        await #expect { try await sender.send(outgoing("Code 1")) } throws: { ($0 as? SMPPError)?.code == .notBound }
        #expect(fake.submits.isEmpty)
        #expect(fake.connectionCount >= 1)
        // That the client reconnects after a lost session is asserted in
        // aDropMidWindowFailsWhatWasInFlightAndSendsNothingTwice; here its backoff would race the
        // whole suite's load.
        await client.shutdown()
        await fake.stop()
    }

    @Test func submitsReadyTogetherShareAFlush() async throws {
        // The bind is answered by the test once all twenty submits wait for it: binding wakes them
        // together, and their submit_sm go out in few writes.
        let fake = try await ScriptedSMSC { pdu, _ in
            if case .bindTransceiver = pdu.body { return [] }
            if let reply = ScriptedSMSC.session(pdu) { return reply }
            guard case .submitSM = pdu.body else { return [] }
            return SMPPFaultTests.accept(pdu, id: "\(pdu.sequenceNumber)")
        }
        let client = SMPPClient(configuration: configuration(port: fake.port) {
            $0.window = 20
            $0.bindWaitTimeout = .seconds(120)
        })
        await client.start()
        let message = SMPPShortMessage(source: try SMPPAddressing.source("Acme"),
                                       destination: try SMPPAddressing.destination("+905321234567"),
                                       shortMessage: Array("Code 1".utf8))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try await client.submit(message) } }
            let deadline = ContinuousClock.now + .seconds(60)
            while await client.boundWaiterCount < 20 || !fake.pdus.contains(where: { $0.commandID == .bindTransceiver }) {
                try #require(ContinuousClock.now < deadline, "the submits never all waited for the bind")
                try await Task.sleep(for: .milliseconds(20))
            }
            let bind = try #require(fake.pdus.first { $0.commandID == .bindTransceiver })
            let connection = try #require(fake.recorder.connections.withLock { $0.first })
            try await connection.writeAndFlush(ByteBuffer(bytes: try SMPPPDU(
                sequenceNumber: bind.sequenceNumber, body: .bindTransceiverResp(systemID: "fake", tlvs: [])).encoded()))
            try await group.waitForAll()
        }
        #expect(fake.submits.count == 20)
        // Each woken submit hops from the global pool back to the client, so how many are queued
        // when the flush runs depends on scheduling (all twenty on an idle machine); one write
        // per submit would mean no batching at all.
        #expect(await client.largestWriteBatch > 1)
        await client.shutdown()
        await fake.stop()
    }

    @Test func aDropMidWindowFailsWhatWasInFlightAndSendsNothingTwice() async throws {
        // The first connection takes five submit_sm, answers none and closes; the second answers all.
        let fake = try await ScriptedSMSC { pdu, connection in
            if let reply = ScriptedSMSC.session(pdu) { return reply }
            guard case .submitSM = pdu.body else { return [] }
            return connection == 1 ? [] : SMPPFaultTests.accept(pdu, id: "\(pdu.sequenceNumber)")
        }
        let client = SMPPClient(configuration: configuration(port: fake.port) { $0.window = 5 })
        await client.start()
        let sender = SMPPSender(client: client, options: try .init(source: "Acme"))
        let byText = await withTaskGroup(of: (String, Result<Void, SMPPError>).self) { group in
            for index in 0..<8 {
                group.addTask {
                    do { try await sender.send(outgoing("Code \(index)", verificationID: "v\(index)")); return ("Code \(index)", .success(())) }
                    catch { return ("Code \(index)", .failure(error as! SMPPError)) }
                }
            }
            // Drop once the window is full.
            let deadline = ContinuousClock.now + .seconds(10)
            while fake.submits.count < 5, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
            for child in fake.recorder.connections.withLock({ $0 }) { try? await child.close() }
            var results: [String: Result<Void, SMPPError>] = [:]
            for await (text, result) in group { results[text] = result }
            return results
        }
        let lost = byText.filter { if case .failure(let e) = $0.value { e.code == .connectionLost } else { false } }
        let sent = byText.filter { if case .success = $0.value { true } else { false } }
        #expect(lost.count == 5 && sent.count == 3)
        // Every message reached the fake exactly once: what was in flight was not sent again.
        let texts = fake.submits.map { String(decoding: $0.shortMessage, as: UTF8.self) }
        #expect(texts.count == 8 && Set(texts).count == 8)
        await client.shutdown()
        await fake.stop()
    }

    @Test func malformedAndUnknownPDUsGetTypedAnswersAndTheSessionGoesOn() async throws {
        let fake = try await ScriptedSMSC { pdu, _ in
            if case .bindTransceiver = pdu.body {
                return ScriptedSMSC.session(pdu)! + [
                    // An unknown command_id, a deliver_sm whose sm_length lies, a generic_nack to nothing.
                    .write([UInt8](hex: "00000010000000ff0000000000000007")),
                    .write([UInt8](hex: "000000240000000500000000000000080000000000000000000000000000000020414243")),
                    .write(try! SMPPPDU(commandStatus: .invalidCommandID, sequenceNumber: 99, body: .genericNack).encoded()),
                ]
            }
            if let reply = ScriptedSMSC.session(pdu) { return reply }
            guard case .submitSM(let message) = pdu.body else { return [] }
            if message.shortMessage == Array("nack".utf8) {
                return [.write(try! SMPPPDU(commandStatus: .invalidCommandLength, sequenceNumber: pdu.sequenceNumber, body: .genericNack).encoded())]
            }
            return SMPPFaultTests.accept(pdu, id: "A1")
        }
        let client = SMPPClient(configuration: configuration(port: fake.port))
        let log = EventLog(client)
        await client.start()
        let sender = SMPPSender(client: client, options: try .init(source: "Acme"))
        try await sender.send(outgoing("Code 5"))
        try await log.waitUntil { log.protocolErrors.count >= 3 && fake.pdus.filter { $0.commandID == .genericNack }.count >= 2 }
        let nacks = fake.pdus.filter { $0.commandID == .genericNack }
        #expect(nacks.map(\.sequenceNumber).sorted() == [7, 8])
        #expect(nacks.first { $0.sequenceNumber == 7 }?.commandStatus == .invalidCommandID)
        #expect(Set(log.protocolErrors.map(\.code)).isSuperset(of: [.unknownCommand, .malformedPDU, .genericNack]))
        await #expect { try await sender.send(outgoing("nack")) } throws: { ($0 as? SMPPError)?.code == .genericNack }
        #expect(fake.connectionCount == 1)
        await client.shutdown()
        await fake.stop()
    }

    @Test func aHugePDUClosesTheConnectionWithoutBufferingIt() async throws {
        let fake = try await ScriptedSMSC { pdu, connection in
            if case .bindTransceiver = pdu.body, connection == 1 {
                // A 64 KB deliver_sm header; the body never needs to arrive for the client to refuse it.
                return ScriptedSMSC.session(pdu)! + [.write([UInt8](hex: "00010000000000050000000000000009") + [UInt8](repeating: 0x41, count: 4096))]
            }
            if let reply = ScriptedSMSC.session(pdu) { return reply }
            return SMPPFaultTests.accept(pdu, id: "B\(connection)")
        }
        let client = SMPPClient(configuration: configuration(port: fake.port))
        let log = EventLog(client)
        await client.start()
        try await log.waitUntil { log.events.withLock { $0.contains { if case .disconnected(let e) = $0 { e.code == .pduTooLarge } else { false } } } }
        // It reconnected and works.
        let sender = SMPPSender(client: client, options: try .init(source: "Acme"))
        try await sender.send(outgoing("Code 6"))
        #expect(fake.connectionCount == 2)
        await client.shutdown()
        await fake.stop()
    }

    @Test func aRateLimitSpacesSubmits() async throws {
        let fake = try await ScriptedSMSC { pdu, _ in ScriptedSMSC.session(pdu) ?? SMPPFaultTests.accept(pdu, id: "C") }
        let client = SMPPClient(configuration: configuration(port: fake.port) { $0.maximumSubmitRate = 20 })
        await client.start()
        let sender = SMPPSender(client: client, options: try .init(source: "Acme"))
        try await sender.send(outgoing("warm up"))
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<10 { group.addTask { try await sender.send(outgoing("Code \(index)")) } }
            try await group.waitForAll()
        }
        // Ten submits at 20 per second take at least about half a second.
        #expect(ContinuousClock.now - start >= .milliseconds(400))
        await client.shutdown()
        await fake.stop()
    }

    @Test func shutdownUnbinds() async throws {
        let fake = try await ScriptedSMSC { pdu, _ in ScriptedSMSC.session(pdu) ?? [] }
        let client = SMPPClient(configuration: configuration(port: fake.port))
        let log = EventLog(client)
        await client.start()
        try await log.waitUntil { log.events.withLock { $0.contains { if case .bound = $0 { true } else { false } } } }
        await client.shutdown()
        #expect(fake.pdus.map(\.commandID) == [.bindTransceiver, .unbind])
        await fake.stop()
    }
}
