// submit_sm per second through SMPPClient against an SMSC on loopback (Benchmarks/smpp-benchmark.sh).
import Foundation
//   SMPPThroughput PORT COUNT WINDOW [loop]
// With "loop", the submitting tasks prefer the client's task executor (its event loop), as
// SMPPSender's do for the parts of one SMS; without, they run on Swift's global executor.
import PhoneVerificationSMPP

let arguments = CommandLine.arguments
guard arguments.count == 4 || (arguments.count == 5 && arguments[4] == "loop"),
      let port = Int(arguments[1]), let count = Int(arguments[2]), let window = Int(arguments[3]) else {
    print("usage: SMPPThroughput PORT COUNT WINDOW [loop]")
    exit(64)
}

var configuration = SMPPClient.Configuration(host: "127.0.0.1", port: port, systemID: "bench", password: "bench")
configuration.window = window
let client = SMPPClient(configuration: configuration)
await client.start()
let message = SMPPShortMessage(source: try SMPPAddressing.source("Acme"),
                               destination: try SMPPAddressing.destination("+905321234567"),
                               shortMessage: Array("Your Acme code is 482913".utf8))
_ = try await client.submit(message)  // bound and warm before the clock starts

// CPU time and context switches of the measured section: on a shared machine the rate moves with
// the load, while these stay close to what the client itself costs per submit_sm.
#if os(Linux)
let rusageSelf = Int32(RUSAGE_SELF.rawValue)
#else
let rusageSelf = RUSAGE_SELF
#endif
func usage() -> (cpu: Double, switches: Int) {
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return (cpu, usage.ru_nvcsw + usage.ru_nivcsw)
}
let executor: (any TaskExecutor)? = arguments.count == 5 ? client.taskExecutor : nil
let before = usage()
let start = ContinuousClock.now
try await withThrowingTaskGroup(of: Void.self) { group in
    // Twice the window of tasks: enough to keep the window full, without a task per message.
    var started = 0
    for _ in 0..<min(count, 2 * window) {
        group.addTask(executorPreference: executor) { _ = try await client.submit(message) }
        started += 1
    }
    while try await group.next() != nil, started < count {
        group.addTask(executorPreference: executor) { _ = try await client.submit(message) }
        started += 1
    }
}
let elapsed = ContinuousClock.now - start
let after = usage()
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print((executor == nil ? "SMPPClient (SMSKit)" : "SMPPClient, callers on its loop").padding(toLength: 44, withPad: " ", startingAt: 0)
    + String(format: " %10.0f submit_sm/s (%d in %.2f s, window %d; %.1f µs CPU and %.2f context switches per submit_sm)",
             Double(count) / seconds, count, seconds, window, (after.cpu - before.cpu) * 1e6 / Double(count),
             Double(after.switches - before.switches) / Double(count)))
await client.shutdown()
