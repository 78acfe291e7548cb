import BlazeConvert
import BlazeEngine
import Foundation

// Writes the generated seeds of the fuzz corpora into Fuzz/Seeds/Generated (Fuzz/Seeds/generate.sh),
// which are committed and copied into the corpora by Fuzz/seed_corpora.sh:
// the two small .bkm graphs of the converter's tests (BKMTestGraphs.swift and SeededRandom.swift
// are links to the test sources) and .npy arrays of a few shapes. Deterministic: rerunning
// rewrites the same bytes.

let out = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Generated")
func write(_ bytes: [UInt8], _ target: String, _ name: String) throws {
    let dir = out.appendingPathComponent(target)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try Data(bytes).write(to: dir.appendingPathComponent(name))
}
try write(ModelFileWriter.encode(BKMTestGraphs.everyOp()), "fuzz-bkm", "every_op.bkm")
try write(ModelFileWriter.encode(BKMTestGraphs.smallNet()), "fuzz-bkm", "small_net.bkm")
for (i, shape) in [[1], [2, 3], [1, 4, 4, 3], [0, 5]].enumerated() {
    let n = shape.reduce(1, *)
    try write(NPYArray(shape: shape, values: (0..<n).map { Float($0) * 0.5 - 1 }).encoded(), "fuzz-npy", "shape\(i).npy")
}
