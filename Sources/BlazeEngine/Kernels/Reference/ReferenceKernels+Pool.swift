// MAX_POOL_2D and AVERAGE_POOL_2D as tflite::reference_ops: the window is clipped to the image
// (padding cells are ignored, not treated as zeros), the average divides by the number of cells
// inside the image, then the fused activation is applied.

extension ReferenceKernels {
    public static func maxPool2D(_ p: Pool2DParams, input: TensorView, output: MutableTensorView) {
        pool(p, input: input, output: output, average: false)
    }

    public static func averagePool2D(_ p: Pool2DParams, input: TensorView, output: MutableTensorView) {
        pool(p, input: input, output: output, average: true)
    }

    private static func pool(_ p: Pool2DParams, input: TensorView, output: MutableTensorView, average: Bool) {
        let g = planned(try p.geometry(input: input.shape))
        precondition(output.count == elementCount(g.outputShape), "POOL_2D output view does not match geometry")
        let act = p.activation
        let x = input.data, y = output.data
        let H = g.inH, W = g.inW, C = g.inC
        var out = 0
        for n in 0..<g.batch {
            let image = x + n &* H &* W &* C
            for oy in 0..<g.outH {
                let iy0 = oy &* g.strideH &- g.padTop
                let yStart = max(0, -iy0), yEnd = min(g.kernelH, H &- iy0)
                for ox in 0..<g.outW {
                    let ix0 = ox &* g.strideW &- g.padLeft
                    let xStart = max(0, -ix0), xEnd = min(g.kernelW, W &- ix0)
                    for c in 0..<C {
                        var acc: Float = average ? 0 : -Float.greatestFiniteMagnitude
                        var cells = 0
                        var ky = yStart
                        while ky < yEnd {
                            var kx = xStart
                            while kx < xEnd {
                                let v = image[((iy0 &+ ky) &* W &+ (ix0 &+ kx)) &* C &+ c]
                                if average { acc += v } else if v > acc { acc = v }
                                cells &+= 1
                                kx &+= 1
                            }
                            ky &+= 1
                        }
                        precondition(cells > 0, "POOL_2D window entirely outside the image")
                        y[out &+ c] = act.apply(average ? acc / Float(cells) : acc)
                    }
                    out &+= C
                }
            }
        }
    }
}
