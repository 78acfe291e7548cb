/// The reference dispatch: every `Op` case maps to its reference kernel here (the `.reference`
/// kernel set of a session). The optimised set runs through `PlannedStep` (bound, split,
/// allocation-free, on the ISA level's kernels).
enum Executor {
    static func execute(_ step: Session.Step) {
        let x = step.inputs
        let out = step.output
        switch step.op {
        case .conv2D(let p):
            ReferenceKernels.conv2D(p, input: x[0], filter: x[1], bias: x.count > 2 ? x[2] : nil, output: out)
        case .depthwiseConv2D(let p):
            ReferenceKernels.depthwiseConv2D(p, input: x[0], filter: x[1], bias: x.count > 2 ? x[2] : nil, output: out)
        case .fullyConnected(let p):
            ReferenceKernels.fullyConnected(p, input: x[0], weights: x[1], bias: x.count > 2 ? x[2] : nil, output: out)
        case .maxPool2D(let p):
            ReferenceKernels.maxPool2D(p, input: x[0], output: out)
        case .averagePool2D(let p):
            ReferenceKernels.averagePool2D(p, input: x[0], output: out)
        case .binary(let p):
            ReferenceKernels.binary(p, a: x[0], b: x[1], output: out)
        case .unary(let kind):
            ReferenceKernels.unary(kind, input: x[0], output: out)
        case .prelu:
            ReferenceKernels.prelu(input: x[0], alpha: x[1], output: out)
        case .pad(let p):
            ReferenceKernels.pad(p, input: x[0], output: out)
        case .reshape:
            ReferenceKernels.copy(input: x[0], output: out)
        case .concatenation(let p):
            ReferenceKernels.concatenation(p, inputs: x, output: out)
        case .resizeBilinear(let p):
            ReferenceKernels.resizeBilinear(p, input: x[0], output: out)
        case .depthToSpace(let p):
            ReferenceKernels.depthToSpace(p, input: x[0], output: out)
        case .reduce(let p):
            ReferenceKernels.reduce(p, input: x[0], output: out)
        case .stridedSlice(let p):
            ReferenceKernels.stridedSlice(p, input: x[0], output: out)
        case .transpose(let p):
            ReferenceKernels.transpose(p, input: x[0], output: out)
        case .transposeConv2D(let p):
            ReferenceKernels.transposeConv2D(p, input: x[0], filter: x[1], bias: x.count > 2 ? x[2] : nil, output: out)
        case .landmarksToTransformMatrix(let p):
            ReferenceKernels.landmarksToTransformMatrix(p, input: x[0], output: out)
        case .transformTensorBilinear(let p):
            ReferenceKernels.transformTensorBilinear(p, input: x[0], matrix: x[1], output: out)
        case .transformLandmarks:
            ReferenceKernels.transformLandmarks(input: x[0], matrix: x[1], output: out)
        case .softmax(let p):
            ReferenceKernels.softmax(p, input: x[0], output: out)
        case .gather(let p):
            ReferenceKernels.gather(p, input: x[0], output: out)
        case .leakyRelu(let p):
            ReferenceKernels.leakyRelu(p, input: x[0], output: out)
        }
    }
}
