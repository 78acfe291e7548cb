import BlazeCLISupport
import BlazeConvert
import BlazeEngine
import Foundation

// blaze-model: convert, inspect and run BlazeKit models (docs/cli.md).
//   blaze-model convert IN.tflite -o OUT.bkm
//   blaze-model convert IN.task --output-dir DIR
//   blaze-model inspect M.bkm [--json]
//   blaze-model run M.bkm --input FILE.npy [--input NAME=FILE.npy …] [--output-dir DIR]
//   blaze-model ops [--markdown]

let usage = """
    usage: blaze-model convert IN.tflite -o OUT.bkm
           blaze-model convert IN.task --output-dir DIR
           blaze-model inspect MODEL.bkm [--json]
           blaze-model run MODEL.bkm --input FILE.npy [--input NAME=FILE.npy ...] [--output-dir DIR]
           blaze-model ops [--markdown]
    """

func main() -> Int32 {
    StandardStreams.install()
    let status = runCommand()
    return StandardStreams.errorOutputFailed ? 1 : status
}

func runCommand() -> Int32 {
    var args = Array(CommandLine.arguments.dropFirst())
    guard let command = args.first else {
        printError(usage)
        return 1
    }
    args.removeFirst()
    do {
        switch command {
        case "convert": try ConvertCommand(arguments: args).run()
        case "inspect": try InspectCommand(arguments: args).run()
        case "run": try RunCommand(arguments: args).run()
        case "ops": try OpsCommand(arguments: args).run()
        case "-h", "--help", "help":
            try printLine(usage)
        default:
            throw UsageError("unknown command '\(command)'\n\(usage)")
        }
        return 0
    } catch {
        printError("blaze-model \(command): \(error)")
        return 1
    }
}

exit(main())
