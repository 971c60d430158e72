// aiter's flash-attention launches (fmha_v3_fwd, fmha_v3_bwd; hd128 bf16, and fp16 for the
// backward, batch mode) as
// hipasm-timing-attn runs them: the tensors a family needs, each code object's argument struct
// (fields padded to 16 bytes), grid and block, and a runner. Shared by hipasm-timing-attn
// (aiter_attn.cpp, which documents where each field and grid comes from) and the kernel
// library's attention benchmarks (bench/kernels/bench_attn_bwd.cpp), so that aiter's time there
// is that of exactly these launches.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "aiter_asm_gemm.hpp"  // metadata_args
#include "elf.hpp"
#include "hipasm/rt/launcher.hpp"

namespace aiter_attn {
namespace fs = std::filesystem;
namespace rt = hipasm::rt;
namespace sim = hipasm::sim;

inline constexpr uint32_t D = 128;

// A struct whose every field is padded to 16 bytes (aiter's p2/p3 padding); metadata_args
// slices it into the code object's arguments.
struct Padded {
  std::vector<uint8_t> raw;
  void put64(uint64_t x) { put(&x, 8); }
  void put32(uint32_t x) { put(&x, 4); }
  void putf(float x) { put(&x, 4); }
  void put(const void* p, size_t n) {
    const size_t at = raw.size();
    raw.resize(at + 16, 0);
    std::memcpy(raw.data() + at, p, n);
  }
};

inline std::string mangled(const std::string& name) { return "_ZN5aiter" + std::to_string(name.size()) + name + "E"; }


struct Shape {
  uint32_t b, h, hk, s;
  bool causal;
  bool fp16 = false;  // the backward's fp16 kernels (their arguments are the bf16 ones'; aiter has no fp16 v3 forward)
};

// Element strides of a [b, s, h, d] (bshd) or [b, h, s, d] tensor with `heads` heads.
struct Layout {
  bool bshd;
  uint32_t s;
  uint32_t stride(uint32_t heads) const { return bshd ? heads * D : D; }
  uint32_t hstride(uint32_t) const { return bshd ? D : s * D; }
  uint32_t bstride(uint32_t heads) const { return heads * s * D; }
  size_t at(uint32_t heads, uint32_t b, uint32_t h, uint32_t i, uint32_t d) const {
    return size_t(b) * bstride(heads) + size_t(i) * stride(heads) + size_t(h) * hstride(heads) + d;
  }
};

// The device addresses of a run's tensors (0: not used by the family).
struct Tensors {
  uint64_t Q = 0, K = 0, V = 0, O = 0, L = 0, dO = 0, dQ = 0, dK = 0, dV = 0, Dd = 0, dQacc = 0;
  uint64_t dqacc_hstride = 0, dqacc_bstride = 0;  // gfx950: elements of dq_acc
  bool dqacc_f32 = false;
};

struct Kern {
  std::string file, name;  // code object (in its folder), symbol
  rt::dim3 grid;
  uint32_t threads;
  Padded args;
};

struct Plan {
  std::vector<Kern> kernels;
  size_t main = 0;  // the attention kernel (the others are helpers)
  double stream_bytes = 0;  // gfx942 bwd: the composable-kernel helpers, estimated as streams
  int stream_kernels = 0;
};

// Allocates the family's tensors (through `alloc`, which returns a device address) and the
// kernels aiter launches for them, with their arguments.
template <class Alloc>
Plan plan(const std::string& fam, const Shape& r, bool cdna4, const Layout& lay, Tensors& t, Alloc alloc) {
  Plan pl;
  const uint64_t nq = uint64_t(r.b) * r.h * r.s * D, nk = uint64_t(r.b) * r.hk * r.s * D,
                 nl = uint64_t(r.b) * r.h * r.s;
  const float scale = 1.0f / std::sqrt(float(D));
  auto stride = [&](uint32_t heads) { return lay.stride(heads); };
  auto hstride = [&](uint32_t heads) { return lay.hstride(heads); };
  auto bstride = [&](uint32_t heads) { return lay.bstride(heads); };
  if (fam == "fwd") {
    if (r.fp16) throw std::runtime_error("aiter has no fp16 fmha_v3_fwd kernel");
    t.Q = alloc(nq * 2), t.K = alloc(nk * 2), t.V = alloc(nk * 2), t.O = alloc(nq * 2), t.L = alloc(nl * 4);
    const char* cvt = cdna4 ? "" : "_rtna";  // gfx950: fmha_fwd.csv bf16_cvt 0
    Kern k;
    k.file = std::string("fwd_hd128_bf16") + (r.causal ? "_causal" : "") + cvt + ".co";
    k.name = mangled(std::string("fmha_fwd_hd128_bf16") + (r.causal ? "_causal" : "") + cvt);
    Padded& p = k.args;
    p.put64(t.O), p.put64(t.Q), p.put64(t.K), p.put64(t.V), p.put64(t.L);
    p.putf(scale);
    p.put32(r.s);                          // s_seq_len
    p.put32(stride(r.h) * 2);              // s_Seqs
    p.put32(256 * stride(r.h) * 2);        // s_Ts = ts_qo * stride_q * 2
    p.put32(hstride(r.h) * 2);             // s_Hs
    p.put32(bstride(r.h) * 2);             // s_Bs
    p.put32(r.h / r.hk);                   // s_gqa
    p.put32(stride(r.hk) * 2), p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2);  // s_k_*
    p.put32(r.causal && (r.h % 8 != 0 || r.s > 16384) ? 3 : 5);                        // s_opt
    p.put32(1);                            // s_lse (benchmark -lse=1)
    p.put32(r.s);                          // s_kv_seq_len
    p.put32(D), p.put32(D), p.put32(r.h);  // s_qk_head_dim, s_v_head_dim, s_q_head_num
    p.put32(stride(r.hk) * 2), p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2);  // s_v_*
    p.put32(stride(r.h) * 2), p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2);     // s_o_*
    p.put64(0), p.put64(0);                // ptr_qseq, ptr_kseq (batch mode)
    p.put32(r.s * 4);                      // s_lse_Hs = nhead_stride_lse * 4
    p.put64(0), p.put64(0);                // ptr_qseq_padding, ptr_kseq_padding
    if (cdna4)                             // ptr_{q,k,v}_descale, s_descale_{q,k,v}_{Bs,Hs}: bf16, none
      for (int z = 0; z < 9; ++z) p.put32(0);
    k.grid = {((r.s + 255) / 256 + (r.causal ? 1 : 0)) / (r.causal ? 2 : 1), r.h, r.b};
    k.threads = 512;
    pl.kernels.push_back(std::move(k));
    return pl;
  }
  const bool a32 = fam == "a32";
  // the backward's element type in its code objects' names (gfx942 bf16: its rounding mode, rtz
  // (the README's -v3_bf16_cvt=2); fam a16_rtne: the a16 kernels that round to nearest even;
  // fp16 has one kernel)
  const std::string ty = r.fp16 ? "fp16" : "bf16", rtz = r.fp16 ? "" : fam == "a16_rtne" ? "_rtne" : "_rtz";
  // dk and dv have h heads (benchmark_mha_bwd: stride_dk from nhead, nhead_stride_dk = nhead_stride_k,
  // which is the same number in both layouts)
  if (!cdna4) {
    // (this order of allocation, as the tool always had: addresses decide channels and cache sets)
    t.Q = alloc(nq * 2), t.K = alloc(nk * 2), t.V = alloc(nk * 2), t.dO = alloc(nq * 2), t.dK = alloc(nq * 2);
    t.dV = alloc(nq * 2), t.dQ = alloc(nq * (a32 ? 4 : 2));  // a32: dq_acc (f32, BHSD), which convert_dq reads
    t.L = alloc(nl * 4), t.Dd = alloc(nl * 4);
    Kern k;
    k.file = "bwd_hd128_" + ty + (r.causal ? "_causal" : "") + (a32 ? "_a32" : "_a16") + rtz + ".co";
    k.name = mangled("fmha_bwd_hd128_" + ty + (r.causal ? "_causal" : "") + (a32 ? "_a32" : "_a16") + rtz);
    Padded& p = k.args;
    p.put64(t.dQ), p.put64(t.dK), p.put64(t.dV), p.put64(t.Q), p.put64(t.K);
    p.put64(t.V), p.put64(t.dO), p.put64(t.L), p.put64(t.Dd);
    p.putf(scale);
    p.putf(1.4426950408889634f);             // log2e
    p.put32(r.s);                            // seq_len
    p.put32(192 * stride(r.hk) * 2);         // Ts = ts_kv * stride_k * 2
    p.put32(hstride(r.h) * 2);               // Hs
    p.put32(bstride(r.h) * 2);               // BAs
    p.put32(stride(r.h) * 2);                // Seqs
    p.put32(r.h / r.hk);                     // ratio
    p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2), p.put32(stride(r.hk) * 2);  // Hs_kv, BAs_kv, Seqs_kv
    p.put32(stride(r.h) * 2);                // Seqs_dkv = stride_dk * 2 (dk has h heads)
    const uint32_t tiles = (r.s + 191) / 192;
    k.grid = {r.causal ? (tiles + 1) / 2 : tiles, r.h, r.b};
    k.threads = 256;
    pl.kernels.push_back(std::move(k));
    // dot_do_o reads O and dO, writes D; convert_dq reads dq_acc (f32), writes dq (bf16)
    pl.stream_bytes = double(nq) * 2 * 2 + double(nl) * 4;
    pl.stream_kernels = 1;
    if (a32) pl.stream_bytes += double(nq) * (4 + 2), pl.stream_kernels = 2;
    return pl;
  }
  // gfx950: csrc/cpp_itfs/mha_bwd.cu fmha_v3_bwd (batch mode, no padding pointers)
  t.Q = alloc(nq * 2), t.K = alloc(nk * 2), t.V = alloc(nk * 2), t.O = alloc(nq * 2), t.dO = alloc(nq * 2);
  t.dK = alloc(nq * 2), t.dV = alloc(nq * 2), t.L = alloc(nl * 4), t.Dd = alloc(nl * 4), t.dQ = alloc(nq * 2);
  const uint32_t acc_s = a32 ? r.s : (r.s + 15) / 16 * 16;  // a16: ceil16(seqlen_q) rows, hdim 128
  const uint32_t esz = a32 ? 4 : 2;
  t.dqacc_f32 = a32;
  t.dqacc_hstride = uint64_t(acc_s) * D;
  t.dqacc_bstride = r.b == 1 ? 0 : uint64_t(r.h) * acc_s * D;
  t.dQacc = alloc(uint64_t(r.b) * r.h * acc_s * D * esz);
  {  // odo: pack_fmha_bwd_odo_args
    Kern k;
    k.file = "bwd_hd128_odo_" + ty + ".co", k.name = mangled("fmha_bwd_hd128_odo_" + ty);
    Padded& p = k.args;
    p.put64(t.O), p.put64(t.dO), p.put64(t.Dd);
    p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2), p.put32(stride(r.h) * 2);  // Hs_o, BAs_o, Seqs_o
    p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2), p.put32(stride(r.h) * 2);  // *_do
    p.put32(r.s * 4), p.put32(r.h * r.s * 4), p.put32(4);                            // Hs_d, BAs_d, Seqs_d
    p.put32(r.s), p.put32(D);                                                        // seqlen_q, head_dim
    p.put64(0), p.put64(0);                                                          // ptr_qseq, ptr_qseq_padded
    k.grid = {(r.s + 127) / 128, r.h, r.b};
    k.threads = 256;
    pl.kernels.push_back(std::move(k));
  }
  {  // dqdkdv: fmha_bwd_dqdkdv_args
    Kern k;
    const std::string n = "bwd_hd128_" + ty + (r.causal ? "_causal" : "") + (a32 ? "_a32" : "_a16") + "_psskddv";
    k.file = n + ".co", k.name = mangled("fmha_" + n);
    Padded& p = k.args;
    p.put64(t.dQacc), p.put64(t.dK), p.put64(t.dV), p.put64(t.Q), p.put64(t.K);
    p.put64(t.V), p.put64(t.dO), p.put64(t.L), p.put64(t.Dd);
    p.putf(scale), p.putf(1.4426950408889634f);  // scalar, log2e
    p.put32(r.s);                                // seqlen_q
    p.put32(256 * stride(r.hk) * 2);             // Ts = ts_kv * stride_k * 2
    p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2), p.put32(stride(r.h) * 2);     // Hs_q, BAs_q, Seqs_q
    p.put32(r.h / r.hk);                                                               // ratio
    p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2), p.put32(stride(r.hk) * 2);  // Hs_k, BAs_k, Seqs_k
    p.put32(stride(r.h) * 2);                                                          // Seqs_dk
    p.put32(r.s), p.put32(D), p.put32(D), p.put32(r.h);  // seqlen_k, head_dim_q, head_dim_v, nhead_q
    p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2), p.put32(stride(r.hk) * 2);  // Hs_v, BAs_v, Seqs_v
    p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2), p.put32(stride(r.h) * 2);     // Hs_do, BAs_do, Seqs_do
    p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2);                              // Hs_dk, BAs_dk
    p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2), p.put32(stride(r.h) * 2);     // Hs_dv, BAs_dv, Seqs_dv
    p.put32(r.s * 4);                                                                  // Hs_lsed
    p.put64(0), p.put64(0), p.put64(0), p.put64(0);  // ptr_qseq, ptr_kseq, ptr_qseq_padded, ptr_kseq_padded
    p.put32(acc_s);                                  // max_seqlen_dq
    p.put32(0), p.put32(0);                          // mask_x, mask_y (window masks only)
    const uint32_t tiles = (r.s + 255) / 256;
    k.grid = {r.causal ? (tiles + 1) / 2 : tiles, r.h, r.b};
    k.threads = 256;
    pl.main = pl.kernels.size();
    pl.kernels.push_back(std::move(k));
  }
  {  // post: fmha_bwd_post_kernel_args
    Kern k;
    const std::string n = a32 ? "bwd_hd128_dq_convert_" + ty : std::string("bwd_hd128_dq_shuffle");
    k.file = n + ".co", k.name = mangled("fmha_" + n);
    Padded& p = k.args;
    p.put64(t.dQacc), p.put64(t.dQ);
    p.put32(uint32_t(t.dqacc_hstride * esz)), p.put32(uint32_t(t.dqacc_bstride * esz)), p.put32(D * esz);
    p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2), p.put32(stride(r.h) * 2);  // Hs_dq, BAs_dq, Seqs_dq
    p.put32(r.s), p.put32(D);                                                        // seqlen_q, head_dim
    p.put64(0), p.put64(0);                                                          // ptr_qseq, ptr_qseq_padded
    k.grid = {(r.s + 63) / 64, r.h, r.b};
    k.threads = 256;
    pl.kernels.push_back(std::move(k));
  }
  return pl;
}

// Runs a plan's kernels in order on `dev` (each loaded from `dir`).
inline std::vector<rt::launch_report> run(rt::device& dev, const fs::path& dir, const Plan& pl, rt::launch_options lo) {
  std::vector<rt::launch_report> reps;
  for (const Kern& k : pl.kernels) {
    const fs::path file = dir / k.file;
    if (!fs::exists(file)) throw std::runtime_error("no " + file.string());
    const std::vector<uint8_t> bytes = sim::read_file_bytes(file.string());
    const sim::CodeObject obj = sim::load_code_object(bytes);
    auto mod = dev.load(bytes);
    lo.kernarg_size = uint32_t(k.args.raw.size());
    reps.push_back(dev.launch(*mod, k.name, k.grid, {k.threads, 1, 1}, aiter_asm::metadata_args(obj.kernel(k.name), k.args.raw), lo));
  }
  return reps;
}

}  // namespace aiter_attn
