// BlazeKernels/Shared: prepared (packed-at-load) CPU kernels in plain Swift SIMD, compiled once per
// ISA level (Baseline/, AVX2/, AVX512/, NEON/ link this folder; each adds its Level.swift of tile tables).
//
// KERNELS
// - `PackedConv2D`          CONV_2D (1×1 pointwise, any k×k / stride / dilation / padding, computed
//                           straight from NHWC without im2col) and FULLY_CONNECTED
//                           (`init(fullyConnected:…)`). Register tiles MR pixels × NV·16 channels,
//                           shape chosen per layer at init; O ≤ 2 heads use dot products.
// - `PackedDepthwiseConv2D` DEPTHWISE_CONV_2D; 3×3 / 5×5, stride 1 / 2 unrolled, any other shape
//                           through a general path; padding inside the kernel.
// - `Pool2DKernel`          MAX_POOL_2D / AVERAGE_POOL_2D (any window; 2×2 s2 in the nets).
// - `ResizeBilinearKernel`  RESIZE_BILINEAR (bit-identical to the reference).
// - `SIMDElementwise`       ADD (+ activation), ADD + PRELU, PRELU (per channel), channel PAD.
// - `ChannelMajorConv`      TRANSPOSE → pointwise CONV_2D … → TRANSPOSE chains (MLP-Mixer token
//                           mixing) run on the channel-major tensors, no transposes.
// - `LayerNormRows`         the ten nodes of a layer normalisation over the last axis as one pass
//                           per row, bitwise the reference kernels' result.
//
// LIFECYCLE AND MEMORY
// - Create each kernel once per model (at load): init copies and packs the weights into 64-byte
//   aligned storage owned by the object (the model's constant buffers may be freed afterwards).
// - `run` allocates nothing, takes no locks and only reads the object: objects are immutable after
//   init and `@unchecked Sendable`; one object serves all sessions and threads concurrently.
//
// THREADING
// - Every kernel exposes `workCount` independent work units and `run(…, work:/rows: range)`.
//   Units: output rows (`batch·outH`) for depthwise, pooling, resize and direct conv; blocks of
//   `pixelsPerUnit` pixels for pointwise conv — times `channelGroups` output-channel groups when
//   the spatial size is small (≥ 8 units whenever the layer allows).
// - Give each thread one contiguous range: `partition(t, of: threads)`. Any split yields
//   bit-identical output to one call (tests check this), so results do not depend on threads.
// - `flops` (2·MACs) helps decide when a layer is too small to split (≲ 0.2 MFLOP ≈ 1–2 µs).
//
// TENSORS AND ALIASING
// - Dense NHWC float32, batch included; pointers need no particular alignment.
// - `output` must not overlap `input`. `residual` is either exactly `output` (in-place ADD) or
//   disjoint from it. Elementwise ops accept `output` == an input (in place).
//
// FUSION (the epilogue, in the order of the TFLite ops it replaces)
//   y = act(acc + bias)                   conv's own fused activation (params.activation)
//   y = residualAct(y + residual)         a following ADD (only when `run` gets `residual`)
//   y = y < 0 ? alpha[c]·y : y            a following PRELU (`prelu:` alpha given at init)
// covering conv→PRELU, conv→ADD(act), conv→ADD→PRELU (BlazeBlocks), conv→ADD→RELU (fuse the
// RELU op as `residualActivation`). `PackedConv2D(residualChannels:)` adds a residual with fewer
// channels than the output — MAX_POOL → PAD(channels) → ADD without materialising the PAD.
//
// LEVELS
// - Each level module (`BlazeKernels` = baseline, `BlazeKernelsAVX2`, `BlazeKernelsAVX512`) compiles
//   these sources with its own `-target-cpu`; its `Level.swift` sets the vector type, the tile
//   shapes (sized for its register file), the cost model and which layers go to OpenBLAS.
// - Every type here is internal to its level module, so no specialisation is shared between
//   levels (a shared one would be one weak symbol, linked once, with one level's instructions).
// - Results match the reference kernels within 1e-5·max(1, max|ref|) (summation order, FMA).
