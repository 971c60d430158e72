// Every gfx942 MFMA and SMFMAC, and gfx950's new dense MFMAs. Operand layouts follow AMD's documented register mapping
// for CDNA3 (the ISA guide's MAI chapter; the same mapping the AMD Matrix Instruction
// Calculator prints):
//   inputs  (A rows / B columns): with E = elements per lane = K*M*Blocks/64 (K/2 for the
//           sparse A), lane l holds row i = l % M of block b = (l / M) % Blocks, and its E
//           consecutive elements are k = E * (l / (M * Blocks)) + e, packed from bit 0 of the
//           first register upwards (e.g. 4 f16 in 2 VGPRs);
//   outputs (32-bit): 4-row groups of N lanes; register r of block b = r / (M*N/64) (or
//           lane / N for 4x4 with 16 blocks) ... computed generically by out_location();
//           64-bit outputs use 1-row groups.
// Modifiers: CBSZ/ABID broadcast block ABID of each group of 2^CBSZ blocks of A to the
// others; BLGP swizzles the lanes B is read from (0: none, 1/2: broadcast lanes 0-31 /
// 32-63, 3: rotate by 16, 4-7: broadcast one group of 16 lanes). For the f64 MFMAs the
// BLGP field holds neg:[A,B,C]. SMFMAC: A is 4:2 sparse, src2 holds the 2-bit indices of
// the kept values in each group of 4 (set chosen by ABID when CBSZ = 0), and the
// accumulator is the destination itself.
// gfx950 f8f6f4: CBSZ/BLGP name the A/B formats (no broadcast, no lane swizzle). FP6/FP4
// operands hold 32 consecutive k a lane; FP8/BF8 ones two runs of 16, lane group g (= l / M)
// holding k = 16 g + (0..15) in bytes 0-15 and K/2 + 16 g + (0..15) in bytes 16-31 (CDNA4 ISA
// guide, 7.1.5.1 "Dense Matrix Layouts: 8-bit and Smaller"). The _scale forms multiply each
// element of row (column) i and k block k / 32 by 2^(E8M0 - 127) of the scale byte of lane
// i + M * (k / 32) (7.2.1's scale layout), whichever lane holds the element.
// Arithmetic: products are exact (f16/bf16/fp8/bf8/xf32 products fit in f32; f32 uses
// fma); each result accumulates C + sum over k in increasing k order in f32 (i32 wraps,
// f64 uses fma). Hardware adds in a different tree order, so results can differ from this
// model by a few ulp of the accumulated magnitude; tests compare with such tolerances.
// EXEC is ignored (the matrix core computes all lanes).
#pragma clang fp contract(off)
#include <array>
#include <mutex>
#include <vector>

#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

// F8F6F4: gfx950's format-selected input (cbsz for A, blgp for B; see Formats).
enum class El : uint8_t { F32, XF32, F16, BF16, I8, FP8, BF8, F64, F8F6F4 };

constexpr int el_bits(El e) {
  switch (e) {
    case El::F32: case El::XF32: return 32;
    case El::F16: case El::BF16: return 16;
    case El::F64: return 64;
    default: return 8;
  }
}

struct Desc {
  const char* name;
  int M, N, K, B;
  El a, b;
  bool sparse;
  bool scaled = false;  // v_mfma_scale_*: src3/src4 hold E8M0 scales of A/B
};

constexpr Desc kDescs[] = {
    {"v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, El::F32, El::F32, false},
    {"v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, El::F32, El::F32, false},
    {"v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, El::F32, El::F32, false},
    {"v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, El::F32, El::F32, false},
    {"v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, El::F32, El::F32, false},
    {"v_mfma_f32_16x16x8_xf32", 16, 16, 8, 1, El::XF32, El::XF32, false},
    {"v_mfma_f32_32x32x4_xf32", 32, 32, 4, 1, El::XF32, El::XF32, false},
    {"v_mfma_f32_32x32x4_2b_f16", 32, 32, 4, 2, El::F16, El::F16, false},
    {"v_mfma_f32_16x16x4_4b_f16", 16, 16, 4, 4, El::F16, El::F16, false},
    {"v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, El::F16, El::F16, false},
    {"v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, El::F16, El::F16, false},
    {"v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, El::F16, El::F16, false},
    {"v_mfma_f32_32x32x4_2b_bf16", 32, 32, 4, 2, El::BF16, El::BF16, false},
    {"v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, El::BF16, El::BF16, false},
    {"v_mfma_f32_4x4x4_16b_bf16", 4, 4, 4, 16, El::BF16, El::BF16, false},
    {"v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, El::BF16, El::BF16, false},
    {"v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, El::BF16, El::BF16, false},
    {"v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, El::I8, El::I8, false},
    {"v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, El::I8, El::I8, false},
    {"v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, El::I8, El::I8, false},
    {"v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, El::I8, El::I8, false},
    {"v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, El::I8, El::I8, false},
    {"v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, El::F64, El::F64, false},
    {"v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4, El::F64, El::F64, false},
    {"v_mfma_f32_16x16x32_bf8_bf8", 16, 16, 32, 1, El::BF8, El::BF8, false},
    {"v_mfma_f32_16x16x32_bf8_fp8", 16, 16, 32, 1, El::BF8, El::FP8, false},
    {"v_mfma_f32_16x16x32_fp8_bf8", 16, 16, 32, 1, El::FP8, El::BF8, false},
    {"v_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, 1, El::FP8, El::FP8, false},
    {"v_mfma_f32_32x32x16_bf8_bf8", 32, 32, 16, 1, El::BF8, El::BF8, false},
    {"v_mfma_f32_32x32x16_bf8_fp8", 32, 32, 16, 1, El::BF8, El::FP8, false},
    {"v_mfma_f32_32x32x16_fp8_bf8", 32, 32, 16, 1, El::FP8, El::BF8, false},
    {"v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 1, El::FP8, El::FP8, false},
    // gfx950 (CDNA4) double-K shapes and the f8f6f4 family: the same lane layout, each lane
    // holding K*M/64 consecutive k (CDNA4 ISA guide, MAI chapter; LLVM's gfx950 MFMA tests).
    {"v_mfma_f32_16x16x32_bf16", 16, 16, 32, 1, El::BF16, El::BF16, false},
    {"v_mfma_f32_32x32x16_bf16", 32, 32, 16, 1, El::BF16, El::BF16, false},
    {"v_mfma_f32_16x16x32_f16", 16, 16, 32, 1, El::F16, El::F16, false},
    {"v_mfma_f32_32x32x16_f16", 32, 32, 16, 1, El::F16, El::F16, false},
    {"v_mfma_i32_16x16x64_i8", 16, 16, 64, 1, El::I8, El::I8, false},
    {"v_mfma_i32_32x32x32_i8", 32, 32, 32, 1, El::I8, El::I8, false},
    // (f8f6f4: the layout below is FP6/FP4's; fp8_k() places FP8/BF8 elements.)
    {"v_mfma_f32_16x16x128_f8f6f4", 16, 16, 128, 1, El::F8F6F4, El::F8F6F4, false},
    {"v_mfma_f32_32x32x64_f8f6f4", 32, 32, 64, 1, El::F8F6F4, El::F8F6F4, false},
    {"v_mfma_scale_f32_16x16x128_f8f6f4", 16, 16, 128, 1, El::F8F6F4, El::F8F6F4, false, true},
    {"v_mfma_scale_f32_32x32x64_f8f6f4", 32, 32, 64, 1, El::F8F6F4, El::F8F6F4, false, true},
    // gfx950 SMFMAC: twice the K of the CDNA3 shapes, the same 4:2 sparse layout (each index
    // register holds 2 bits per kept A value; with 16 values per lane it is the whole VGPR).
    {"v_smfmac_f32_16x16x64_f16", 16, 16, 64, 1, El::F16, El::F16, true},
    {"v_smfmac_f32_32x32x32_f16", 32, 32, 32, 1, El::F16, El::F16, true},
    {"v_smfmac_f32_16x16x64_bf16", 16, 16, 64, 1, El::BF16, El::BF16, true},
    {"v_smfmac_f32_32x32x32_bf16", 32, 32, 32, 1, El::BF16, El::BF16, true},
    {"v_smfmac_i32_16x16x128_i8", 16, 16, 128, 1, El::I8, El::I8, true},
    {"v_smfmac_i32_32x32x64_i8", 32, 32, 64, 1, El::I8, El::I8, true},
    {"v_smfmac_f32_16x16x128_bf8_bf8", 16, 16, 128, 1, El::BF8, El::BF8, true},
    {"v_smfmac_f32_16x16x128_bf8_fp8", 16, 16, 128, 1, El::BF8, El::FP8, true},
    {"v_smfmac_f32_16x16x128_fp8_bf8", 16, 16, 128, 1, El::FP8, El::BF8, true},
    {"v_smfmac_f32_16x16x128_fp8_fp8", 16, 16, 128, 1, El::FP8, El::FP8, true},
    {"v_smfmac_f32_32x32x64_bf8_bf8", 32, 32, 64, 1, El::BF8, El::BF8, true},
    {"v_smfmac_f32_32x32x64_bf8_fp8", 32, 32, 64, 1, El::BF8, El::FP8, true},
    {"v_smfmac_f32_32x32x64_fp8_bf8", 32, 32, 64, 1, El::FP8, El::BF8, true},
    {"v_smfmac_f32_32x32x64_fp8_fp8", 32, 32, 64, 1, El::FP8, El::FP8, true},
    {"v_smfmac_f32_16x16x32_f16", 16, 16, 32, 1, El::F16, El::F16, true},
    {"v_smfmac_f32_32x32x16_f16", 32, 32, 16, 1, El::F16, El::F16, true},
    {"v_smfmac_f32_16x16x32_bf16", 16, 16, 32, 1, El::BF16, El::BF16, true},
    {"v_smfmac_f32_32x32x16_bf16", 32, 32, 16, 1, El::BF16, El::BF16, true},
    {"v_smfmac_i32_16x16x64_i8", 16, 16, 64, 1, El::I8, El::I8, true},
    {"v_smfmac_i32_32x32x32_i8", 32, 32, 32, 1, El::I8, El::I8, true},
    {"v_smfmac_f32_16x16x64_bf8_bf8", 16, 16, 64, 1, El::BF8, El::BF8, true},
    {"v_smfmac_f32_16x16x64_bf8_fp8", 16, 16, 64, 1, El::BF8, El::FP8, true},
    {"v_smfmac_f32_16x16x64_fp8_bf8", 16, 16, 64, 1, El::FP8, El::BF8, true},
    {"v_smfmac_f32_16x16x64_fp8_fp8", 16, 16, 64, 1, El::FP8, El::FP8, true},
    {"v_smfmac_f32_32x32x32_bf8_bf8", 32, 32, 32, 1, El::BF8, El::BF8, true},
    {"v_smfmac_f32_32x32x32_bf8_fp8", 32, 32, 32, 1, El::BF8, El::FP8, true},
    {"v_smfmac_f32_32x32x32_fp8_bf8", 32, 32, 32, 1, El::FP8, El::BF8, true},
    {"v_smfmac_f32_32x32x32_fp8_fp8", 32, 32, 32, 1, El::FP8, El::FP8, true},
};
constexpr int kNumDescs = int(std::size(kDescs));

// ---- layouts (computed once per instruction)
struct Layout {
  int a_epl = 0, b_epl = 0;            // elements per lane
  int a_regs = 0, b_regs = 0, d_regs = 0;
  int out_bits = 32;
  // inputs: for lane l, element e -> (block, row/col, k)
  std::vector<int16_t> a_blk, a_row, a_k, b_blk, b_col, b_k;  // [l * epl + e]
  // outputs: register r (in units of out_bits), lane l -> flat index b*M*N + i*N + j
  std::vector<int32_t> d_index;  // [r * 64 + l]
};

// Output location of element (b, i, j): the register (in out_bits units) and the lane.
std::pair<int, int> out_location(const Desc& d, int out_bits, int b, int i, int j) {
  const int M = d.M, N = d.N;
  const int multirows_per_reg = 64 / N;
  const int height = out_bits == 64 ? 1 : 4;
  const int per_block = (M * N) / 64;  // registers of one block (0 when blocks share one)
  const int blocks_per_reg = (64 + (N * M / height) - 1) / (N * M / height);
  const int reg = b * per_block + (i / (height * multirows_per_reg)) * height + i % height;
  const int lane = (b % blocks_per_reg) * N + ((i / height) % multirows_per_reg) * blocks_per_reg * N + j;
  return {reg, lane};
}

Layout make_layout(const Desc& d) {
  Layout L;
  const int ka = d.sparse ? d.K / 2 : d.K;
  L.a_epl = ka * d.M * d.B / 64;
  L.b_epl = d.K * d.N * d.B / 64;
  L.a_regs = (L.a_epl * el_bits(d.a) + 31) / 32;
  L.b_regs = (L.b_epl * el_bits(d.b) + 31) / 32;
  L.out_bits = d.a == El::F64 ? 64 : 32;
  const int words = d.M * d.N * d.B / 64;  // output elements per lane
  L.d_regs = words * L.out_bits / 32;
  for (int l = 0; l < kLanes; ++l) {
    for (int e = 0; e < L.a_epl; ++e) {
      const int g = l / d.M;
      L.a_blk.push_back(int16_t(g % d.B));
      L.a_row.push_back(int16_t(l % d.M));
      L.a_k.push_back(int16_t(L.a_epl * (g / d.B) + e));
    }
    for (int e = 0; e < L.b_epl; ++e) {
      const int g = l / d.N;
      L.b_blk.push_back(int16_t(g % d.B));
      L.b_col.push_back(int16_t(l % d.N));
      L.b_k.push_back(int16_t(L.b_epl * (g / d.B) + e));
    }
  }
  L.d_index.assign(size_t(words) * kLanes, -1);
  for (int b = 0; b < d.B; ++b)
    for (int i = 0; i < d.M; ++i)
      for (int j = 0; j < d.N; ++j) {
        auto [r, l] = out_location(d, L.out_bits, b, i, j);
        L.d_index[size_t(r) * kLanes + l] = (b * d.M + i) * d.N + j;
      }
  return L;
}

const Layout& layout(int idx) {
  static std::array<Layout, kNumDescs> layouts;
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < kNumDescs; ++i) layouts[size_t(i)] = make_layout(kDescs[i]);
  });
  return layouts[size_t(idx)];
}

// k of element e (0..31) of an FP8/BF8 f8f6f4 operand in lane group g, K the instruction's K.
constexpr int fp8_k(int e, int g, int K) { return (e / 16) * (K / 2) + 16 * g + e % 16; }

int blgp_lane(int l, int blgp) {
  switch (blgp) {
    case 1: return l % 32;
    case 2: return l < 32 ? l + 32 : l;
    case 3: return (l + 16) % 64;
    case 4: return l % 16;
    case 5: return l < 16 ? l + 16 : (l >= 48 ? l - 32 : (l >= 32 ? l - 16 : l));
    case 6: return l >= 48 ? l - 16 : (l < 16 ? l + 32 : (l < 32 ? l + 16 : l));
    case 7: return l + (3 - l / 16) * 16;
    default: return l;
  }
}

// xf32: f32 rounded to 10 explicit mantissa bits (nearest-even).
inline float to_xf32(uint32_t b) {
  if (fp::is_nan32(b) || (b & 0x7f800000u) == 0x7f800000u) return f32(b);
  uint32_t lsb = (b >> 13) & 1u;
  b += 0xfffu + lsb;
  return f32(b & ~0x1fffu);
}

// Values of every code of the narrow float formats: CDNA3's FNUZ fp8/bf8, and CDNA4's OCP
// e4m3fn/e5m2, fp6 e2m3/e3m2 and fp4 e2m1 (float_formats.hpp).
struct Fp8Tables {
  float fnuz_fp8[256], fnuz_bf8[256];
  float mx[5][256];  // by f8f6f4 format code: e4m3, e5m2, e2m3, e3m2, e2m1
  Fp8Tables() {
    const fp::MiniFloat* fmts[5] = {&fp::kE4M3, &fp::kE5M2, &fp::kE2M3, &fp::kE3M2, &fp::kE2M1};
    for (int i = 0; i < 256; ++i) {
      fnuz_fp8[i] = fp::fp8_to_f32(uint8_t(i), fp::kFp8);
      fnuz_bf8[i] = fp::fp8_to_f32(uint8_t(i), fp::kBf8);
      for (int f = 0; f < 5; ++f) mx[f][i] = fp::mini_to_f32(uint32_t(i) & ((1u << fmts[f]->bits()) - 1), *fmts[f]);
    }
  }
};
const Fp8Tables& fp8_tables() {
  static const Fp8Tables t;
  return t;
}

// How one instruction's narrow inputs read: fp8/bf8 per the target (FNUZ or OCP); f8f6f4
// A/B per cbsz/blgp.
struct Formats {
  const float* fp8;
  const float* bf8;
  const float* ab[2];  // f8f6f4 value tables of A and B
  int ab_bits[2];      // their element widths (8, 6 or 4)
};
Formats formats(const Wave& w, const Inst& in) {
  const Fp8Tables& t = fp8_tables();
  const bool ocp = target_of(w).fp8 == Fp8Kind::Ocp;
  Formats f{ocp ? t.mx[0] : t.fnuz_fp8, ocp ? t.mx[1] : t.fnuz_bf8, {t.mx[0], t.mx[0]}, {8, 8}};
  const unsigned code[2] = {in.mod.cbsz, in.mod.blgp};
  for (int i = 0; i < 2; ++i) {
    const unsigned c = code[i] <= 4 ? code[i] : 0;
    f.ab[i] = t.mx[c];
    f.ab_bits[i] = c <= 1 ? 8 : c <= 3 ? 6 : 4;
  }
  return f;
}

// Element e of a lane's packed input registers (operand `which`: 0 A, 1 B), as the
// accumulator type.
template <class Acc, El T>
inline Acc element(const uint32_t* const* regs, int lane, int e, const Formats& fm, int which) {
  if constexpr (T == El::F8F6F4) {
    const int nb = fm.ab_bits[which];
    const int bit = e * nb;
    uint64_t v = regs[bit / 32][lane];
    if (bit % 32 + nb > 32) v |= uint64_t(regs[bit / 32 + 1][lane]) << 32;  // fp6 straddles
    return Acc(fm.ab[which][(v >> (bit % 32)) & ((1u << nb) - 1)]);
  }
  constexpr int bits_ = el_bits(T);
  const int bit = e * bits_;
  const uint32_t word = regs[bit / 32][lane];
  if constexpr (T == El::F32) return Acc(f32(word));
  else if constexpr (T == El::XF32) return Acc(to_xf32(word));
  else if constexpr (T == El::F16) return Acc(fp::f16_to_f32(uint16_t(word >> (bit % 32))));
  else if constexpr (T == El::BF16) return Acc(fp::bf16_to_f32(uint16_t(word >> (bit % 32))));
  else if constexpr (T == El::I8) return Acc(int8_t(uint8_t(word >> (bit % 32))));
  else if constexpr (T == El::FP8) return Acc(fm.fp8[uint8_t(word >> (bit % 32))]);
  else if constexpr (T == El::BF8) return Acc(fm.bf8[uint8_t(word >> (bit % 32))]);
  else return Acc(f64(word | (uint64_t(regs[bit / 32 + 1][lane]) << 32)));
}

// D (B x M x N) += A (B x M x K) * B (B x K x N), k in increasing order for every element.
// Shapes are compile-time constants so each row of D stays in registers across k.
template <class Acc, int M, int N, int K, int B, bool Fused>
__attribute__((always_inline)) inline void multiply_body(const Acc* __restrict A, const Acc* __restrict Bm, Acc* __restrict D) {
  for (int b = 0; b < B; ++b) {
    const Acc* Ab = A + size_t(b) * M * K;
    const Acc* Bb = Bm + size_t(b) * K * N;
    Acc* Db = D + size_t(b) * M * N;
    for (int i = 0; i < M; ++i) {
      Acc acc[N];
      for (int j = 0; j < N; ++j) acc[j] = Db[i * N + j];
      for (int k = 0; k < K; ++k) {
        const Acc a = Ab[i * K + k];
        const Acc* brow = Bb + k * N;
        if constexpr (std::is_same_v<Acc, int32_t>) {
          for (int j = 0; j < N; ++j) acc[j] = int32_t(uint32_t(acc[j]) + uint32_t(a) * uint32_t(brow[j]));
        } else if constexpr (Fused) {
          for (int j = 0; j < N; ++j) acc[j] = __builtin_elementwise_fma(a, brow[j], acc[j]);
        } else {
          // exact products (narrow inputs): a plain multiply-add rounds once
          for (int j = 0; j < N; ++j) acc[j] = acc[j] + a * brow[j];
        }
      }
      for (int j = 0; j < N; ++j) Db[i * N + j] = acc[j];
    }
  }
}
template <class Acc, int M, int N, int K, int B, bool Fused>
__attribute__((target("avx2,fma"))) void multiply_avx2(const Acc* A, const Acc* Bm, Acc* D) {
  multiply_body<Acc, M, N, K, B, Fused>(A, Bm, D);
}
template <class Acc, int M, int N, int K, int B, bool Fused>
void multiply_generic(const Acc* A, const Acc* Bm, Acc* D) {
  multiply_body<Acc, M, N, K, B, Fused>(A, Bm, D);
}
inline bool have_avx2_fma() {
  static const bool v = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return v;
}

template <class Acc, int I>
void run(Wave& w, const Inst& in, const Layout& L) {
  constexpr Desc d = kDescs[I];
  constexpr int M = d.M, N = d.N, K = d.K, B = d.B;
  const Modifiers& m = in.mod;
  const bool is_f64 = d.a == El::F64;
  // Register pointers of A and B (VGPR or AGPR; literal/constant inputs are broadcast).
  alignas(64) uint32_t cbuf[2][8][kLanes];
  const uint32_t* ra[8] = {};
  const uint32_t* rb[8] = {};
  auto regs = [&](const Operand& op, int n, const uint32_t** out, uint32_t (*buf)[kLanes]) {
    for (int r = 0; r < n; ++r) {
      if (op.is_vector()) {
        out[r] = vec_ptr(w, op, r);
      } else {
        uint32_t v = read_scalar(w, op, r & 1);
        for (int l = 0; l < kLanes; ++l) buf[r][l] = v;
        out[r] = buf[r];
      }
    }
  };
  // f8f6f4: the format sets the tuple (8, 6 or 4 registers; the decoder sized the operand).
  const bool mx = d.a == El::F8F6F4;
  regs(in.src[0], mx ? std::min<int>(L.a_regs, in.src[0].dwords) : L.a_regs, ra, cbuf[0]);
  regs(in.src[1], mx ? std::min<int>(L.b_regs, in.src[1].dwords) : L.b_regs, rb, cbuf[1]);
  const Formats fm = formats(w, in);
  if (mx && !d.scaled && m.abid)
    fail(in, "abid on an f8f6f4 MFMA without v_mfma_ld_scale_b32 before it");
  // v_mfma_scale_*: lane l's E8M0 scale (2^(e - 127), the MX formats' 32-element block scale)
  // of the A (B) elements of row (column) l % M, k block l / M, the byte of its src3 (src4)
  // that op_sel / op_sel_hi select. An SGPR or constant scale gives bits [30:23] instead, whatever the selection
  // (a hardware defect: LLVM PR #158117, which therefore allows only VGPR scales).
  auto scale = [&](int which, int lane) -> Acc {
    if constexpr (!d.scaled) {
      return Acc(1);
    } else {
      const Operand& op = in.src[3 + which];
      const int byte = ((m.op_sel >> which) & 1) | (((m.op_sel_hi >> which) & 1) << 1);
      const uint32_t v = read_u32(w, op, lane);
      return Acc(fp::e8m0_to_f32(uint8_t(op.is_vector() ? v >> (8 * byte) : v >> 23)));
    }
  };

  // Dense A (B x M x K), B stored k-major (B x K x N), D (B x M x N).
  thread_local std::vector<Acc> A, Bm, D;
  A.assign(size_t(B) * M * K, Acc(0));
  Bm.assign(size_t(B) * K * N, Acc(0));
  D.assign(size_t(B) * M * N, Acc(0));

  const bool neg_a = is_f64 && (((m.blgp >> 0) & 1) || in.src[0].neg);
  const bool neg_b = is_f64 && (((m.blgp >> 1) & 1) || in.src[1].neg);
  const bool neg_c = is_f64 && (((m.blgp >> 2) & 1) || in.src[2].neg);
  const int blgp = is_f64 || mx ? 0 : m.blgp;

  // f8f6f4: an FP8/BF8 operand's own k order (fp8_k); the scale of row (column) i, k block kb
  // from lane i + M * kb.
  const bool fp8_a = mx && fm.ab_bits[0] == 8, fp8_b = mx && fm.ab_bits[1] == 8;
  Acc sa_lane[kLanes], sb_lane[kLanes];
  if constexpr (d.scaled)
    for (int l = 0; l < kLanes; ++l) sa_lane[l] = scale(0, l), sb_lane[l] = scale(1, l);
  if (!d.sparse) {
    for (int l = 0; l < kLanes; ++l) {
      for (int e = 0; e < L.a_epl; ++e) {
        const size_t x = size_t(l) * L.a_epl + e;
        const int k = fp8_a ? fp8_k(e, l / M, K) : L.a_k[x];
        Acc v = element<Acc, d.a>(ra, l, e, fm, 0);
        if constexpr (d.scaled) v *= sa_lane[L.a_row[x] + M * (k / 32)];
        A[(size_t(L.a_blk[x]) * M + L.a_row[x]) * K + k] = neg_a ? -v : v;
      }
    }
    // CBSZ/ABID: block b reads the A block `abid` of its group of 2^cbsz blocks.
    if (m.cbsz && !is_f64 && !mx && B > 1) {
      const int group = 1 << m.cbsz;
      std::vector<Acc> src(A);
      for (int b = 0; b < B; ++b) {
        const int from = (b / group) * group + m.abid;
        if (from >= B) fail(in, "abid selects a block the instruction does not have");
        std::copy_n(src.begin() + size_t(from) * M * K, size_t(M) * K, A.begin() + size_t(b) * M * K);
      }
    }
  } else {
    // 4:2 sparse A: each kept value lands at its index within its group of four k.
    const Operand& idx_op = in.src[2];
    const int set_bits = 2 * L.a_epl;
    const int set = m.cbsz == 0 ? m.abid : 0;
    if (set * set_bits >= 32) fail(in, "abid selects an index set past the index register");
    for (int l = 0; l < kLanes; ++l) {
      const uint32_t idx = read_u32(w, idx_op, l) >> (set * set_bits);
      for (int e = 0; e < L.a_epl; ++e) {
        const size_t x = size_t(l) * L.a_epl + e;
        const int kc = L.a_k[x];  // compressed k
        const int k = 4 * (kc / 2) + int((idx >> (2 * e)) & 3);
        A[(size_t(L.a_blk[x]) * M + L.a_row[x]) * K + k] += element<Acc, d.a>(ra, l, e, fm, 0);
      }
    }
  }
  for (int l = 0; l < kLanes; ++l) {
    const int sl = blgp_lane(l, blgp);
    for (int e = 0; e < L.b_epl; ++e) {
      const size_t x = size_t(l) * L.b_epl + e;
      const int k = fp8_b ? fp8_k(e, l / N, K) : L.b_k[x];
      Acc v = element<Acc, d.b>(rb, sl, e, fm, 1);
      if constexpr (d.scaled) v *= sb_lane[L.b_col[x] + N * (k / 32)];
      Bm[(size_t(L.b_blk[x]) * K + k) * N + L.b_col[x]] = neg_b ? -v : v;
    }
  }
  // C: the destination itself for SMFMAC, else src2 (registers or a broadcast constant).
  const Operand& cop = d.sparse ? in.dst[0] : in.src[2];
  // A constant C: for f32/i32 accumulators use its 32-bit value. A float inline constant
  // expanded to f64 bits (the operand spans a register tuple) is narrowed to f32 exactly as
  // the 32-bit inline constant would be.
  uint32_t c_const32 = 0;
  if (!cop.is_vector()) {
    const uint64_t v = read_scalar64(w, cop);
    const uint32_t hi = uint32_t(v >> 32);
    c_const32 = (hi != 0 && hi != 0xffffffffu) ? bits(float(f64(v))) : uint32_t(v);
  }
  constexpr int words = M * N * B / 64;
  const uint64_t c64 = cop.is_vector() ? 0 : read_scalar64(w, cop);
  for (int r = 0; r < words; ++r) {
    const int32_t* idx = &L.d_index[size_t(r) * kLanes];
    if constexpr (std::is_same_v<Acc, double>) {
      const uint32_t* lo = cop.is_vector() ? vec_ptr(w, cop, 2 * r) : nullptr;
      const uint32_t* hi = cop.is_vector() ? vec_ptr(w, cop, 2 * r + 1) : nullptr;
      for (int l = 0; l < kLanes; ++l) {
        const double c = f64(lo ? (lo[l] | (uint64_t(hi[l]) << 32)) : c64);
        D[size_t(idx[l])] = neg_c ? -c : c;
      }
    } else {
      const uint32_t* src = cop.is_vector() ? vec_ptr(w, cop, r) : nullptr;
      for (int l = 0; l < kLanes; ++l) {
        const uint32_t v = src ? src[l] : c_const32;
        if constexpr (std::is_same_v<Acc, int32_t>) D[size_t(idx[l])] = int32_t(v);
        else D[size_t(idx[l])] = f32(v);
      }
    }
  }
  // D += A * B (f32 inputs and f64 use fma: their products are not exact in the accumulator)
  constexpr bool fused = d.a == El::F32 || d.a == El::F64;
  if (have_avx2_fma()) multiply_avx2<Acc, M, N, K, B, fused>(A.data(), Bm.data(), D.data());
  else multiply_generic<Acc, M, N, K, B, fused>(A.data(), Bm.data(), D.data());
  // Scatter D to the destination registers.
  const Operand& dst = in.dst[0];
  if (!dst.is_vector()) fail(in, "MFMA destination is not a vector register tuple");
  for (int r = 0; r < words; ++r) {
    if constexpr (std::is_same_v<Acc, double>) {
      uint32_t* lo = vec_ptr(w, dst, 2 * r);
      uint32_t* hi = vec_ptr(w, dst, 2 * r + 1);
      for (int l = 0; l < kLanes; ++l) {
        const uint64_t v = bits(D[size_t(L.d_index[size_t(r) * kLanes + l])]);
        lo[l] = uint32_t(v);
        hi[l] = uint32_t(v >> 32);
      }
    } else {
      uint32_t* out = vec_ptr(w, dst, r);
      for (int l = 0; l < kLanes; ++l) {
        const Acc v = D[size_t(L.d_index[size_t(r) * kLanes + l])];
        if constexpr (std::is_same_v<Acc, int32_t>) out[l] = uint32_t(v);
        else out[l] = bits(float(v));
      }
    }
  }
}

template <int I>
void mfma_handler(Wave& w, const Inst& in) {
  constexpr Desc d = kDescs[I];
  const Layout& L = layout(I);
  if constexpr (d.a == El::I8) run<int32_t, I>(w, in, L);
  else if constexpr (d.a == El::F64) run<double, I>(w, in, L);
  else run<float, I>(w, in, L);
}

template <int... I>
void register_all(std::integer_sequence<int, I...>) {
  (Registry::get().add(kDescs[I].name, &mfma_handler<I>), ...);
}

const bool registered = [] {
  register_all(std::make_integer_sequence<int, kNumDescs>{});
  return true;
}();

}  // namespace

// For tests: the documented output position of element (block, row, col) of an MFMA:
// {register index in units of the output element width, lane}; {-1, -1} if unknown.
std::pair<int, int> mfma_output_location(std::string_view name, int block, int row, int col) {
  for (const Desc& d : kDescs)
    if (name == d.name) return out_location(d, d.a == El::F64 ? 64 : 32, block, row, col);
  return {-1, -1};
}

}  // namespace hipasm::sim::detail
