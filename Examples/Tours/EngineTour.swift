import BlazeEngine
import BlazeModels

func engineTour() throws {
    let model = try BundledModel.palmDetectionFull.load()      // or Model(contentsOf: url)
    print(model.inputs, model.outputs)                         // names and shapes
    // The palm detector takes one 1×192×192×3 image, RGB in 0…1, rows top to bottom (NHWC).
    let pixels = [Float](repeating: 0.5, count: 1 * 192 * 192 * 3)
    let session = model.makeSession()                          // one per thread; the Model is shared
    let outputs = try session.run([pixels])                    // [Float] per input → [Float] per output
    // outputs[0]: 2016 anchors × 18 box and keypoint offsets; outputs[1]: 2016 scores (logits).
    print(outputs.map(\.count))
}
