import BlazeEngine
import BlazeModels

/// Command line of `bench`:
///
///     bench [--json] [--threads N] [--model STEM]… [--runs N] [--no-alloc-count]
///     bench --profile [--threads N] [--model STEM]… [--top N]   (time per op, slowest first)
///     bench --roofline   (register-only multiply-add peak of each kernel level this CPU runs)
///     bench --soak [--frames N] [--threads N] [--json]   (long-running video and live-stream modes, see `Soak`)
///     bench --layer pointwise P K O | depthwise H W C K S [--tile MRxNV | T] [--versus MRxNV | T] [--relu6] [--residual R] [--runs N]   (one layer alone, hot and cold cache, see `LayerBench`)
///     bench --serve --model STEM [--threads N]   (times blocks of runs on request from stdin, see `serve`)
///     bench --serve --model-file PATH.bkm [--threads N]   (the same for any converted model)
///
/// `--threads N` measures every model at N threads (default: every core); `--model` filters (repeat
/// it for several; model stems or pipeline names such as `faces_fast`); `--runs N` fixes the timed runs per model (default: about 1.5 s worth, 10–500);
/// `--no-alloc-count` skips the allocation count (`allocs_per_inference` is then null).
/// `--alloc-probe STEM` is internal: the child process that counts heap allocations (see
/// `AllocationProbe`).
struct BenchOptions {
    var json = false
    var threads = Session.defaultThreadCount
    var models: [BundledModel] = []
    /// Pipeline entries to run (`--model` also accepts their names).
    var pipelines: [String] = []
    var runs = 0
    var warmup = 5
    var allocProbe: BundledModel?
    var profile = false
    var roofline = false
    /// `--profile`: ops listed one by one (slowest first).
    var profileTop = 25
    var countAllocations = true
    var soak = false
    /// `--soak`: frames per phase.
    var soakFrames = 10_000
    /// `--layer`: the one layer to time.
    var layer: LayerBench.Spec?
    /// `--serve`: time runs of one model on request (a side-by-side script drives it).
    var serve = false
    /// `--serve --model-file PATH`: a `.bkm` file instead of a bundled model.
    var modelFile: String?

    static let usage =
        "usage: bench [--json] [--threads N] [--model STEM]… [--runs N] [--no-alloc-count] | bench --profile [--threads N] [--model STEM]… [--top N] | bench --roofline | bench --soak [--frames N] [--threads N] [--json] | bench --layer (pointwise P K O | depthwise H W C K S) [--tile MRxNV | T] [--versus MRxNV | T] [--relu6] [--residual R] [--runs N] | bench --serve (--model STEM | --model-file PATH.bkm) [--threads N]"

    init(_ args: [String]) throws {
        var i = 0
        func next() throws -> String {
            i += 1
            guard i < args.count else { throw BlazeError(.invalidInput, "\(args[i - 1]) needs a value; \(Self.usage)") }
            return args[i]
        }
        func positive(_ name: String) throws -> Int {
            guard let n = Int(try next()), n >= 1 else { throw BlazeError(.invalidInput, "\(name) expects a positive integer") }
            return n
        }
        func model(_ stem: String) throws -> BundledModel {
            guard let m = BundledModel(rawValue: stem) else {
                throw BlazeError(.invalidInput, "unknown model \(stem); one of \(BundledModel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return m
        }
        while i < args.count {
            switch args[i] {
            case "--json": json = true
            case "--model":
                let stem = try next()
                if PipelineBench.names.contains(stem) { pipelines.append(stem) } else { models.append(try model(stem)) }
            case "--threads": threads = try positive("--threads")
            case "--runs": runs = try positive("--runs")
            case "--alloc-probe": allocProbe = try model(try next())
            case "--profile": profile = true
            case "--roofline": roofline = true
            case "--serve": serve = true
            case "--model-file": modelFile = try next()
            case "--soak": soak = true
            case "--frames": soakFrames = try positive("--frames")
            case "--top": profileTop = try positive("--top")
            case "--no-alloc-count": countAllocations = false
            case "--layer":
                let kind = try next()
                guard let count = LayerBench.valueCount(kind: kind) else {
                    throw BlazeError(.invalidInput, "--layer expects: pointwise P K O, or depthwise H W C K S")
                }
                layer = try LayerBench.parse([kind] + (0..<count).map { _ in try next() })
            case "--tile":
                guard layer != nil else { throw BlazeError(.invalidInput, "--tile goes after --layer") }
                try LayerBench.parseTile(try next(), into: &layer!)
            case "--versus":
                guard layer != nil else { throw BlazeError(.invalidInput, "--versus goes after --layer") }
                try LayerBench.parseTile(try next(), into: &layer!, versus: true)
            case "--residual":
                guard layer?.kind == .pointwise else { throw BlazeError(.invalidInput, "--residual goes after --layer pointwise") }
                guard let r = Int(try next()), r >= 0, r <= layer!.sizes[2] else {
                    throw BlazeError(.invalidInput, "--residual expects the residual's channels, 0...O")
                }
                layer?.residualChannels = r
            case "--relu6":
                guard layer != nil else { throw BlazeError(.invalidInput, "--relu6 goes after --layer") }
                layer?.activation = .relu6
            case "-h", "--help": throw BlazeError(.invalidInput, Self.usage)
            default: throw BlazeError(.invalidInput, "unknown option \(args[i]); \(Self.usage)")
            }
            i += 1
        }
        if modelFile != nil && (!serve || !models.isEmpty || !pipelines.isEmpty) {
            throw BlazeError(.invalidInput, "--model-file goes with --serve, in place of --model")
        }
        if serve && modelFile == nil && (models.count != 1 || !pipelines.isEmpty) {
            throw BlazeError(.invalidInput, "--serve needs exactly one --model (a bundled model) or a --model-file")
        }
        if models.isEmpty && pipelines.isEmpty {
            models = BundledModel.allCases
            pipelines = PipelineBench.names
        }
    }
}
