// The FLOPs the timing model counts per instruction, for every gfx942 VALU and matrix opcode of
// the decoder's table (gen/gfx942_opcodes.inc: encoding, mnemonic, operand widths). The
// expected counts are derived here from the operation's semantics and its operand widths, not
// from the model's mnemonic rules: the elements of a packed (VOP3P) op are its destination's
// bits over its type's, a dot product's terms its source's bits over its element type's, an
// MFMA's M, N, K and blocks are checked against its A/B and D register widths.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core.hpp"
#include "timing/timing.hpp"

namespace {
using hipasm::sim::Format;

struct Row {
  Format fmt;
  uint16_t op;
  const char* printed;
  const char* sig;
};
using namespace hipasm::sim;  // Format:: in the table
const Row kRows[] = {
#include "gen/gfx942_opcodes.inc"
};

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string w; std::getline(ss, w, c);) v.push_back(w);
  return v;
}

// Register widths in bits by field name ("vdst:v2" -> vdst 64).
std::map<std::string, unsigned> widths(const char* sig) {
  std::map<std::string, unsigned> w;
  for (const std::string& tok : split(sig, ' ')) {
    const size_t c = tok.find(':');
    if (c == std::string::npos || c + 2 > tok.size()) continue;
    w[tok.substr(0, c)] = 32u * unsigned(std::stoul(tok.substr(c + 2)));
  }
  return w;
}

// Bits of a type word ("f16" 16, "bf8" 8, "i4" 4), 0 for a word that is not a type.
unsigned type_bits(const std::string& w) {
  static const std::map<std::string, unsigned> k = {
      {"f16", 16}, {"bf16", 16}, {"f32", 32}, {"xf32", 32}, {"f64", 64}, {"fp8", 8}, {"bf8", 8},
      {"i4", 4},   {"u4", 4},    {"i8", 8},   {"u8", 8},    {"i16", 16}, {"u16", 16}, {"i32", 32},
      {"u32", 32}, {"i64", 64},  {"u64", 64}, {"b16", 16},  {"b32", 32}, {"b64", 64}};
  const auto it = k.find(w);
  return it == k.end() ? 0 : it->second;
}
bool is_float(const std::string& w) {
  return w == "f16" || w == "bf16" || w == "f32" || w == "xf32" || w == "f64";
}

std::string base_name(std::string p) {
  for (const char* suf : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (p.size() > 4 && p.ends_with(suf)) p.resize(p.size() - std::string(suf).size());
  return p;
}

}  // namespace

TEST_CASE("timing: FLOPs per instruction follow each opcode's semantics", "[timing][flops]") {
  // FLOPs per element by operation (rocprofiler-compute's VALU FLOP convention: add, multiply
  // and transcendental 1, FMA 2); the operation is the mnemonic's first word after v_ / v_pk_.
  const std::map<std::string, double> per_element = {
      {"fma", 2}, {"fmac", 2}, {"fmaak", 2}, {"fmamk", 2}, {"mac", 2}, {"mad", 2}, {"madak", 2},
      {"madmk", 2}, {"add", 1}, {"sub", 1}, {"subrev", 1}, {"mul", 1}, {"exp", 1}, {"log", 1},
      {"rcp", 1}, {"rsq", 1}, {"sqrt", 1}, {"sin", 1}, {"cos", 1}};
  // Floating-point operations that count 0 (decided, docs/timing-model.md Report): conversions,
  // compares and class tests, min/max/median selection, rounding, exponent/mantissa handling,
  // the division's scale and fix-up steps, cube-map and trig helpers, packing.
  const std::set<std::string> zero = {
      "cvt",   "cmp",   "cmpx",  "max",   "min",   "max3",  "min3", "med3",
      "ceil",  "floor", "trunc", "rndne", "fract", "frexp", "ldexp", "cubeid",
      "cubema", "cubesc", "cubetc", "trig", "pack"};
  std::set<std::string> seen;
  int checked_valu = 0, checked_mfma = 0, checked_dot = 0;
  for (const Row& row : kRows) {
    if (row.fmt != Format::VOP1 && row.fmt != Format::VOP2 && row.fmt != Format::VOP3 &&
        row.fmt != Format::VOP3P && row.fmt != Format::VOPC)
      continue;
    const std::string m = base_name(row.printed);
    if (!seen.insert(m).second) continue;
    const auto w = widths(row.sig);
    std::vector<std::string> words = split(m, '_');  // "v", ["pk",] op, ..., types
    REQUIRE(words.size() >= 2);
    INFO(m << " (" << row.sig << ")");
    hipasm::sim::Inst in;
    in.mnemonic = m;
    in.format = row.fmt;
    const bool matrix = words[1] == "mfma" || words[1] == "smfmac";
    in.cls = C_VALU | (matrix ? C_MFMA : 0u);
    const hipasm::sim::timing::InstInfo f = hipasm::sim::timing::classify(in);
    if (matrix) {
      // v_mfma_<out>_<M>x<N>x<K>[_<B>b]_<in>: M*N*B outputs of out_bits in the 64 lanes' D,
      // N*K*B elements of in_bits in the 64 lanes' B operand (src1; A is half of it for the 2:4
      // sparse smfmac). FLOPs = 2*M*N*K*B (sparse counted dense-equivalent).
      const auto dims = split(words[3], 'x');
      REQUIRE(dims.size() == 3);
      const double M = std::stod(dims[0]), N = std::stod(dims[1]), K = std::stod(dims[2]);
      double B = 1;
      if (words.size() > 5 && words[4].ends_with("b")) B = std::stod(words[4]);
      const unsigned out_bits = type_bits(words[2]), in_bits = type_bits(words.back());
      REQUIRE(out_bits > 0);
      REQUIRE(in_bits > 0);
      CHECK(w.at("vdst") * 64.0 / out_bits == M * N * B);
      CHECK(w.at("src1") * 64.0 / in_bits == N * K * B);
      CHECK(f.flops_per_wave == 2 * M * N * K * B);
      CHECK(!f.valu_flops_per_lane);
      ++checked_mfma;
      continue;
    }
    const bool packed = words[1] == "pk";
    const std::string op = words[packed ? 2 : 1];
    std::vector<std::string> types;
    for (size_t i = packed ? 3 : 2; i < words.size(); ++i)
      if (type_bits(words[i])) types.push_back(words[i]);
    double expect = 0;
    if (op.rfind("dot", 0) == 0) {
      // d = sum over the source's elements of a*b, + c: one multiply and one add each.
      REQUIRE(!types.empty());
      const double terms = double(w.at("src0")) / type_bits(types.back());
      expect = 2 * terms;
      ++checked_dot;
    } else {
      bool fp = false;
      for (const auto& t : types) fp = fp || is_float(t);
      if (!fp) {
        CHECK(f.flops_per_wave == 0);  // integer and bitwise ops are not counted (decided)
        continue;
      }
      // Elements: a VOP3P op works on its destination's bits / its type's (v_pk_fma_f32 on a
      // 64-bit pair: 2; v_pk_fma_f16 on 32 bits: 2); other encodings on one value. The mixed-
      // precision FMAs (VOP3P, v_fma_mix*) compute one value (mixlo/mixhi write one half).
      // Exception: v_pk_fmac_f16 is gfx942's one packed op with a VOP2 encoding (2 halves).
      double elems = 1;
      if ((row.fmt == Format::VOP3P && m.find("fma_mix") == std::string::npos) || m == "v_pk_fmac_f16") elems = double(w.at("vdst")) / type_bits(types.front());
      if (m.rfind("v_div_fmas", 0) == 0) expect = 2 * elems;  // a division's final FMA
      else if (const auto it = per_element.find(op); it != per_element.end()) expect = it->second * elems;
      else {
        const std::string key = op == "div" ? words[2] : op;  // div_scale, div_fixup
        INFO("a floating-point opcode neither counted nor listed as 0");
        CHECK((zero.count(key) || (op == "div" && (key == "scale" || key == "fixup"))));
      }
    }
    CHECK(f.flops_per_wave == expect);
    CHECK(f.valu_flops_per_lane == (expect != 0));
    ++checked_valu;
  }
  // Coverage: the table's 46 MFMA/SMFMAC shapes, 11 dot products and 259 floating-point VALU
  // opcodes (dots included) were all checked.
  CHECK(checked_mfma == 46);
  CHECK(checked_dot == 11);
  CHECK(checked_valu == 259);
  // Spot values from the ISA's definitions, written out.
  auto flops = [](const char* m) {
    hipasm::sim::Inst in;
    in.mnemonic = m;
    in.cls = C_VALU;
    return hipasm::sim::timing::classify(in).flops_per_wave;
  };
  CHECK(flops("v_dot2_f32_f16") == 4);
  CHECK(flops("v_dot2c_f32_f16") == 4);
  CHECK(flops("v_dot4_i32_i8") == 8);
  CHECK(flops("v_pk_fma_f32") == 4);
  CHECK(flops("v_pk_mul_f32") == 2);
  CHECK(flops("v_pk_fma_f16") == 4);
  CHECK(flops("v_fma_f64") == 2);
  CHECK(flops("v_exp_f32") == 1);
  CHECK(flops("v_cvt_f32_f16") == 0);
  CHECK(flops("v_max_f32") == 0);
  CHECK(flops("v_add_u32") == 0);
}
