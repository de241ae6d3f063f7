import Foundation
import Testing

/// Shell completions (swift-argument-parser's `--generate-completion-script`) and the man page
/// `docs/smskit.1`, generated from the help by tools/manpage/generate.py.
@Suite struct ManualAndCompletionTests {
    @Test("a completion script for each shell, with the subcommands and their options", arguments: ["bash", "zsh", "fish"])
    func completionScript(shell: String) throws {
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        for word in ["validate", "segments", "render", "strict-lines", "summary-format"] {
            #expect(result.stdout.contains(word), "\(shell) script lacks \(word)")
        }
        switch shell {
        case "bash": #expect(result.stdout.hasPrefix("#!/bin/bash"))
        case "zsh": #expect(result.stdout.hasPrefix("#compdef smskit"))
        default: #expect(result.stdout.contains("complete -c 'smskit'"))
        }
    }

    @Test("the bash script loads in bash and completes a subcommand")
    func bashCompletionLoads() throws {
        let result = try CLI.shell("""
            source <("$SMSKIT" --generate-completion-script bash)
            COMP_WORDS=(smskit seg); COMP_CWORD=1; COMP_LINE='smskit seg'; COMP_POINT=${#COMP_LINE}
            _smskit smskit seg smskit; printf '%s\\n' "${COMPREPLY[@]}"
            """)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.lines.contains("segments"), "stdout: \(result.stdout)")
    }

    @Test("docs/smskit.1 is what tools/manpage/generate.py makes from today's help")
    func manPageIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = try #require(CLI.executable)
        let result = try CLI.shell("python3 '\(root.path)/tools/manpage/generate.py' --binary '\(binary.path)' --check")
        #expect(result.status == 0, "run: python3 tools/manpage/generate.py --binary .build/debug/smskit; \(result.stderr)")
        let page = try String(contentsOf: root.appendingPathComponent("docs/smskit.1"), encoding: .utf8)
        #expect(page.contains(".SS smskit segments"))
        #expect(page.contains("\\-\\-lines"))
    }
}
