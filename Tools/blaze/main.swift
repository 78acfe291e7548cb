import BlazeCLISupport
import BlazeEngine
import Foundation

// blaze: face detection (ML Kit style) and hand landmarks (MediaPipe Tasks style) from the
// command line. docs/cli.md describes the flags and the JSON Lines output.

let usage =
    "usage: blaze faces … | blaze hands … | blaze gestures … | blaze face-landmarks … | blaze --version   (blaze COMMAND --help)\n\n"
    + FacesCommand.usage + "\n" + HandsCommand.usage + "\n" + GesturesCommand.usage + "\n" + FaceLandmarksCommand.usage

func main() -> Int32 {
    StandardStreams.install()
    let status = runCommand()
    return StandardStreams.errorOutputFailed ? 1 : status
}

func runCommand() -> Int32 {
    let args = Array(CommandLine.arguments.dropFirst())
    guard let command = args.first else {
        printError(usage)
        return 1
    }
    let rest = Array(args.dropFirst())
    do {
        switch command {
        case "faces":
            if rest.contains("--help") || rest.contains("-h") { try printLine(FacesCommand.usage); return 0 }
            return try FacesCommand(arguments: rest).run()
        case "hands":
            if rest.contains("--help") || rest.contains("-h") { try printLine(HandsCommand.usage); return 0 }
            return try HandsCommand(arguments: rest).run()
        case "gestures":
            if rest.contains("--help") || rest.contains("-h") { try printLine(GesturesCommand.usage); return 0 }
            return try GesturesCommand(arguments: rest).run()
        case "face-landmarks":
            if rest.contains("--help") || rest.contains("-h") { try printLine(FaceLandmarksCommand.usage); return 0 }
            return try FaceLandmarksCommand(arguments: rest).run()
        case "-h", "--help", "help":
            try printLine(usage)
            return 0
        case "--version":
            // The kernel level is the one every detector of this process runs (BLAZE_ISA forces one).
            let level = try KernelLevels.active()
            try printLine(
                "blaze (BlazeKit) kernel level \(level); this CPU (\(CPUInfo.brand)) supports: "
                    + KernelLevels.runnable.map(\.rawValue).joined(separator: ", "))
            return 0
        default:
            throw UsageError("unknown command '\(command)'")
        }
    } catch {
        printError("blaze \(command): \(error)")
        return 1
    }
}

exit(main())
