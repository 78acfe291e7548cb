#ifndef BLAZEKIT_CPU_FEATURES_H
#define BLAZEKIT_CPU_FEATURES_H
// Header-only CPU feature detection (no computation): the compiler runtime's own CPUID reading,
// which also checks that the OS saves the wide registers (XGETBV), so a CPU with AVX under an OS
// without XSAVE support reports no AVX. Under an emulator (qemu-user) this is the emulated CPU's
// answer, unlike /proc/cpuinfo, which shows the host's flags.

/// Bit 0: SSE2 (x86-64 baseline); bit 1: AVX2 + FMA + F16C; bit 2: AVX-512 F + BW + DQ + VL;
/// bit 3: AVX-512 F alone (what OpenBLAS' SkylakeX kernels need).
static inline unsigned blaze_cpu_feature_bits(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    unsigned bits = 1u;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") &&
        __builtin_cpu_supports("avx")) {
        bits |= 2u;
    }
    if (__builtin_cpu_supports("avx512f")) {
        bits |= 8u;
    }
    if ((bits & 2u) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
        bits |= 4u;
    }
    return bits;
#else
    return 0u;
#endif
}

/// The CPU's brand string from CPUID leaves 0x80000002–4 (empty when unavailable).
static inline void blaze_cpu_brand(char out[49]) {
    out[0] = 0;
#if defined(__x86_64__)
    unsigned maxLeaf = 0, b = 0, c = 0, d = 0;
    __asm__ volatile("cpuid" : "=a"(maxLeaf), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0u));
    if (maxLeaf < 0x80000004u) return;
    unsigned *words = (unsigned *)out;
    for (unsigned leaf = 0; leaf < 3; leaf++) {
        __asm__ volatile("cpuid"
                         : "=a"(words[leaf * 4]), "=b"(words[leaf * 4 + 1]), "=c"(words[leaf * 4 + 2]),
                           "=d"(words[leaf * 4 + 3])
                         : "a"(0x80000002u + leaf), "c"(0u));
    }
    out[48] = 0;
#endif
}

/// CPUID leaf 0's vendor (1: AuthenticAMD, 2: GenuineIntel, 0: other) and leaf 1's display
/// family and model (base + extended fields, as the vendors' manuals combine them).
static inline void blaze_cpu_signature(unsigned *vendor, unsigned *family, unsigned *model) {
    *vendor = 0;
    *family = 0;
    *model = 0;
#if defined(__x86_64__)
    unsigned maxLeaf = 0, b = 0, c = 0, d = 0;
    __asm__ volatile("cpuid" : "=a"(maxLeaf), "=b"(b), "=c"(c), "=d"(d) : "a"(0u), "c"(0u));
    if (b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u) *vendor = 1;      /* "AuthenticAMD" */
    else if (b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu) *vendor = 2; /* "GenuineIntel" */
    if (maxLeaf < 1u) return;
    unsigned a = 0;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1u), "c"(0u));
    unsigned baseFamily = (a >> 8) & 0xfu, baseModel = (a >> 4) & 0xfu;
    unsigned extFamily = (a >> 20) & 0xffu, extModel = (a >> 16) & 0xfu;
    *family = baseFamily == 0xfu ? baseFamily + extFamily : baseFamily;
    *model = (baseFamily == 0xfu || baseFamily == 0x6u) ? (extModel << 4) + baseModel : baseModel;
#endif
}
#endif
