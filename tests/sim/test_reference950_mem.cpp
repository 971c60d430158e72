// gfx950 reference suite, memory: clang-22's gfx950 code for the transposing LDS reads and
// the 16-/12-byte LDS-DMA (kernels/ref950_mem.hip) against host references. The checker must
// report nothing.
#include "kernels/ref_host.hpp"

using namespace refsuite;
namespace {
const std::string G = "950_mem";

// Element e (bits wide, from bit 0 up) of the `bytes`-byte row at byte address a of `lds`.
uint32_t row_element(const std::vector<uint32_t>& lds, uint32_t a, int bits, int e) {
  uint64_t v = 0;
  const int bit = e * bits;
  const uint32_t byte = a + uint32_t(bit / 8);
  for (int k = 0; k < 3; ++k) v |= uint64_t((lds[(byte + k) / 4] >> (8 * ((byte + k) % 4))) & 0xff) << (8 * k);
  return uint32_t(v >> (bit % 8)) & ((1u << bits) - 1);
}
}  // namespace

TEST_CASE("gfx950 reference: ds_read_b64_tr_b16 / b8 / b4, ds_read_b96_tr_b6", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(1950);
  std::vector<uint32_t> In(1024);
  for (auto& v : In) v = rng();
  struct K { const char* name; int bits, bytes; };
  for (const K k : {K{"read_tr_b16", 16, 8}, K{"read_tr_b8", 8, 8}, K{"read_tr_b4", 4, 8}, K{"read_tr_b6", 6, 12}}) {
    std::vector<uint32_t> Addr(64);
    for (uint32_t l = 0; l < 64; ++l) Addr[l] = uint32_t(k.bytes) * ((l * 7 + 3) % 64);
    const uint32_t dw = uint32_t(k.bytes) / 4;
    device& dev = *the_device();
    buffer<uint32_t> dIn(dev, In), dA(dev, Addr), dOut(dev, 64 * dw);
    kernel_args args;
    args.add(dIn.addr()).add(dA.addr()).add(dOut.addr());
    run(G, k.name, {1}, {64}, args);
    auto Out = dOut.download();
    const int per_lane = k.bytes * 8 / k.bits;
    mismatches m;
    for (uint32_t l = 0; l < 64; ++l)
      for (int n = 0; n < per_lane; ++n) {
        // b16, as ROCm/rocm-systems PR #10175 found on hardware: destination lane l halfword
        // n is halfword l % 4 of the row source lane 4n + (l / 4) % 4 of its 16-lane group
        // read. The other widths: the same 16-lane transpose of the group's rows taken as one
        // element list (lane l gets elements l, l + 16, ...).
        uint32_t src_lane, src_e;
        if (k.bits == 16) {
          src_lane = (l & ~15u) + 4 * uint32_t(n) + ((l >> 2) & 3), src_e = l & 3;
        } else {
          const uint32_t flat = uint32_t(n) * 16 + (l & 15);
          src_lane = (l & ~15u) + flat / uint32_t(per_lane), src_e = flat % uint32_t(per_lane);
        }
        const uint32_t want = row_element(In, Addr[src_lane], k.bits, int(src_e));
        const uint32_t got = row_element(Out, l * uint32_t(k.bytes), k.bits, n);
        expect_exact(m, std::string(k.name) + " lane " + std::to_string(l) + " element", size_t(n), got, want);
      }
    INFO(k.name);
    REFSUITE_REQUIRE_NONE(m);
  }
}

TEST_CASE("gfx950 reference: global_load_lds_dwordx4 / dwordx3", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(2950);
  std::vector<uint32_t> In(64 * 4);
  for (auto& v : In) v = rng();
  for (uint32_t size : {16u, 12u}) {
    std::vector<uint32_t> Off(64);
    for (uint32_t l = 0; l < 64; ++l) Off[l] = size * ((l * 5 + 1) % 64);
    device& dev = *the_device();
    buffer<uint32_t> dIn(dev, In), dOff(dev, Off), dOut(dev, 64 * size / 4);
    kernel_args args;
    args.add(dIn.addr()).add(dOff.addr()).add(dOut.addr());
    run(G, size == 16 ? "dma_x4" : "dma_x3", {1}, {64}, args);
    auto Out = dOut.download();
    mismatches m;
    // Lane l's `size` bytes land at LDS byte l * size.
    for (uint32_t i = 0; i < 64 * size / 4; ++i) {
      const uint32_t lane = 4 * i / size, within = 4 * i % size;
      expect_exact(m, "LDS dword", i, Out[i], In[(Off[lane] + within) / 4]);
    }
    INFO("bytes per lane " << size);
    REFSUITE_REQUIRE_NONE(m);
  }
}

TEST_CASE("gfx950 reference: buffer_load_dwordx4 ... lds", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(3950);
  std::vector<uint32_t> In(64 * 4);
  for (auto& v : In) v = rng();
  // The V# ends at 768 bytes: lanes whose 16 bytes start there or later read zeros.
  const uint32_t in_bytes = 768;
  std::vector<uint32_t> Off(64);
  for (uint32_t l = 0; l < 64; ++l) Off[l] = 16 * ((l * 5 + 1) % 64);
  device& dev = *the_device();
  buffer<uint32_t> dIn(dev, In), dOff(dev, Off), dOut(dev, 64 * 4);
  kernel_args args;
  args.add(dIn.addr()).add(dOff.addr()).add(dOut.addr()).add(in_bytes);
  run(G, "dma_buf_x4", {1}, {64}, args);
  auto Out = dOut.download();
  mismatches m;
  for (uint32_t i = 0; i < 64 * 4; ++i) {
    const uint32_t lane = i / 4, byte = Off[lane] + 4 * (i % 4);
    expect_exact(m, "LDS dword", i, Out[i], Off[lane] < in_bytes ? In[byte / 4] : 0u);
  }
  REFSUITE_REQUIRE_NONE(m);
}

// buffer_atomic_pk_add_bf16 (gfx950; no clang builtin): the f16 kernel's code with the bf16
// opcode in its place, assembled by clang++-22 for gfx950. Each half: old + data in f32,
// rounded to nearest-even bf16 (the inputs keep the f32 sum exact); the old dword returned.
TEST_CASE("gfx950 reference: buffer_atomic_pk_add_bf16", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  const std::string co = reassembled("950_mem", "buffer_pk_add_bf16", "gfx950", [](std::string& s) {
    const size_t k = s.find("\nbuffer_pk_add:");
    REQUIRE(k != std::string::npos);
    const size_t op = s.find("buffer_atomic_pk_add_f16", k);
    REQUIRE(op != std::string::npos);
    s.replace(op, 24, "buffer_atomic_pk_add_bf16");
  });
  std::mt19937 rng(12);
  std::vector<uint32_t> M(64), V(64);
  auto bf = [&](int lo) {  // +-(1 + k/128) * 2^e, e in [lo, lo + 6)
    const float f = std::ldexp(1.0f + float(rng() % 128) / 128.0f, lo + int(rng() % 6));
    return uint32_t(float_to_bf16((rng() & 1) ? -f : f));
  };
  for (int l = 0; l < 64; ++l) M[size_t(l)] = bf(0) | bf(-3) << 16, V[size_t(l)] = bf(0) | bf(-3) << 16;
  M[0] = 0x7f807f80u, V[0] = 0x3f80bf80u;  // inf + 1, inf - 1
  device& dev = *the_device();
  auto mod = dev.load_file(co);
  buffer<uint32_t> dM(dev, M), dV(dev, V), dO(dev, 64);
  kernel_args args;
  args.add(dM.addr()).add(dV.addr()).add(dO.addr());
  launch_report rep = dev.launch(*mod, "buffer_pk_add", {1}, {64}, args);
  INFO(join_lines(rep.diagnostics));
  REQUIRE(rep.diagnostics.empty());
  auto Mo = dM.download(), O = dO.download();
  mismatches m;
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t want = 0;
    for (int h = 0; h < 2; ++h)
      want |= uint32_t(float_to_bf16(bf16_to_float(uint16_t(M[l] >> (16 * h))) + bf16_to_float(uint16_t(V[l] >> (16 * h)))))
              << (16 * h);
    expect_exact(m, "memory", l, Mo[l], want);
    expect_exact(m, "returned old", l, O[l], M[l]);
  }
  REFSUITE_REQUIRE_NONE(m);
}
