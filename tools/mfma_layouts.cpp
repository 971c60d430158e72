// hipasm-mfma-layouts: renders docs/mfma-layouts.md, each MFMA atom's lane layout, from the
// atom data (include/hipasm/mfma_atom.hpp, targets/<arch>/mfma_atoms.hpp): which row or column
// and which k each lane holds, the element order in its registers (fp8 / fp6 / fp4 for the
// f8f6f4 atoms), what a scale byte covers, and the C/D layout. Built for gfx950
// (-DHIPASM_TARGET_GFX950=1), whose atoms are gfx942's (less xf32) and CDNA4's.
//
//   hipasm-mfma-layouts                 print the page
//   hipasm-mfma-layouts --check FILE    exit 1 (naming the first differing line) unless FILE is
//                                       the page (the docs.mfma_layouts test)
#include <hipasm/hipasm.hpp>
#include <hipasm/helpers/mfma.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using hipasm::mfma_atom;
using hipasm::mfma_coord;
using hipasm::mfma_dim;
using hipasm::mfma_layout;

// "0-3, 8-11" of a list, runs of +1 merged, in the list's order.
std::string runs(const std::vector<int>& v) {
  std::string o;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!o.empty()) o += ", ";
    o += std::to_string(v[i]);
    if (j > i) o += "-" + std::to_string(v[j]);
    i = j + 1;
  }
  return o;
}

enum class Op { a, b, c };

// `format`: an f8f6f4 operand's format code (0, 1 fp8 / bf8; 2-4 fp6 / bf6 / fp4), whose layouts differ.
mfma_layout layout(const mfma_atom& x, Op w, int format) {
  return w == Op::a ? x.ab_layout(0, format) : w == Op::b ? x.ab_layout(1, format) : x.lc;
}

// The coordinate a lane owns one of (A: row i, B: column j, C: column j) and the ones its
// elements run over (A, B: k; C: rows), each element with its block.
struct LanePart {
  int own = 0;
  std::vector<std::pair<int, int>> along;  // (block, k or row) by element
};
LanePart lane_part(const mfma_atom& x, Op w, int lane, int format) {
  const mfma_layout L = layout(x, w, format);
  LanePart p;
  for (int e = 0; e < L.elems(); ++e) {
    const mfma_coord c = L.coord(lane, e);
    // A: (row i, col k); B: (row k, col j); C: (row i, col j).
    const int own = w == Op::a ? c.row : c.col, along = w == Op::b ? c.row : w == Op::a ? c.col : c.row;
    if (e == 0) p.own = own;
    p.along.push_back({c.block, along});
  }
  return p;
}

// The widest aligned group of lanes in which every operand's own coordinate steps by one with
// the lane and nothing else changes: the table's rows.
int group_size(const mfma_atom& x, int format) {
  for (int g = 64; g > 1; g /= 2) {
    bool ok = true;
    for (Op w : {Op::a, Op::b, Op::c})
      for (int l = 0; l < 64 && ok; ++l) {
        const LanePart p = lane_part(x, w, l, format), q = lane_part(x, w, l - l % g, format);
        ok = p.along == q.along && p.own == q.own + l % g;
      }
    if (ok) return g;
  }
  return 1;
}

std::string cell(const mfma_atom& x, Op w, int first, int g, int format) {
  const LanePart p = lane_part(x, w, first, format);
  const char* own = w == Op::a ? "i" : "j";
  const char* along = w == Op::c ? "i" : "k";
  std::string o = std::string(own) + " " + std::to_string(p.own) + (g > 1 ? "-" + std::to_string(p.own + g - 1) : "");
  // The elements in runs of one block ("block 1: k 0-3"; single-block atoms name none).
  for (size_t i = 0; i < p.along.size();) {
    size_t j = i;
    std::vector<int> v;
    while (j < p.along.size() && p.along[j].first == p.along[i].first) v.push_back(p.along[j++].second);
    o += x.blocks > 1 ? "; block " + std::to_string(p.along[i].first) + ": " + along + " " + runs(v)
                      : std::string(", ") + along + " " + runs(v);
    i = j;
  }
  return o;
}

const char* type_name(hipasm::mfma_type t) { return hipasm::mfma_type_name(t).data(); }

void atom_section(std::string& o, const mfma_atom& x) {
  o += "### " + std::string(x.name) + "\n\n";
  o += std::to_string(x.m) + " x " + std::to_string(x.n) + " x " + std::to_string(x.k);
  if (x.blocks > 1) o += ", " + std::to_string(x.blocks) + " blocks";
  o += "; A " + std::string(type_name(x.a)) + ", B " + type_name(x.b) + ", C/D " + type_name(x.c);
  const bool f8f6f4 = x.a == hipasm::mfma_type::f8f6f4;
  if (!f8f6f4)
    o += "; a lane holds " + std::to_string(x.a_elems()) + " A and " + std::to_string(x.b_elems()) + " B elements (" +
         std::to_string(x.a_regs()) + " and " + std::to_string(x.b_regs()) + " VGPRs)";
  o += ", " + std::to_string(x.c_elems()) + " of C/D (" + std::to_string(x.c_regs()) + " VGPRs)";
  if (x.scaled) o += "; scaled (E8M0 scale VGPRs sa, sb)";
  o += ".\n\n";
  // f8f6f4: FP8 / BF8 operands have their own layout (two runs of 16 k a lane); FP6 / FP4's is
  // 32 consecutive k. C/D is the same in both tables.
  for (const int format : f8f6f4 ? std::vector<int>{0, 4} : std::vector<int>{0}) {
    if (f8f6f4)
      o += format == 0 ? "FP8 / BF8 operands (cbsz / blgp 0, 1):\n\n" : "FP6 / BF6 / FP4 operands (cbsz / blgp 2, 3, 4):\n\n";
    const int g = group_size(x, format);
    o += "| lanes | A: row, k (element order) | B: column, k (element order) | C/D: column, rows (element order) |\n";
    o += "| --- | --- | --- | --- |\n";
    for (int l = 0; l < 64; l += g) {
      o += "| " + std::to_string(l) + (g > 1 ? "-" + std::to_string(l + g - 1) : "") + " | ";
      o += cell(x, Op::a, l, g, format) + " | " + cell(x, Op::b, l, g, format) + " | " + cell(x, Op::c, l, g, format) +
           " |\n";
    }
    o += "\n";
  }
  if (f8f6f4) {
    // Element e of a lane sits at bits e x (element bits) of its registers, from bit 0 of the
    // first up (mfma_atom.hpp): the widths by format give the byte / nibble order.
    static const char* const kFormats[] = {"fp8 e4m3", "bf8 e5m2", "fp6 e2m3", "bf6 e3m2", "fp4 e2m1"};
    o += "| cbsz / blgp | format | A / B VGPRs | element e of a lane |\n| --- | --- | --- | --- |\n";
    for (int f = 0; f <= 4; ++f) {
      const int bits = x.operand_bits(0, f);
      std::string where;
      if (32 % bits == 0)
        where = "v[e / " + std::to_string(32 / bits) + "] bits " + std::to_string(bits) + " x (e % " +
                std::to_string(32 / bits) + ") up" + (bits == 4 ? ": element 2m in byte m's low nibble, 2m + 1 in its high nibble" : "");
      else
        where = "bits " + std::to_string(bits) + "e to " + std::to_string(bits) + "e + " + std::to_string(bits - 1) +
                " of the " + std::to_string(x.a_regs(f) * 32) + "-bit register tuple (some span two VGPRs)";
      o += "| " + std::to_string(f) + " | " + kFormats[f] + " | " + std::to_string(x.a_regs(f)) + " / " +
           std::to_string(x.b_regs(f)) + " | " + where + " |\n";
    }
    o += "\n";
  }
  if (x.scaled) {
    o += "Scales: the E8M0 scale, 2^(e - 127), of A's row i and k block b (k 32b to 32b + 31: one MX "
         "block) is lane (i + " + std::to_string(x.m) + " b)'s byte of `sa`; B's column j and block b is lane (j + " +
         std::to_string(x.n) +
         " b)'s byte of `sb` (CDNA4 ISA guide, 7.2.1), wherever the table above puts those elements (an FP8 "
         "lane's two runs of 16 k lie in different blocks). `op_sel` / `op_sel_hi` bit 0 (1) pick the byte of "
         "`sa` (`sb`), byte 0 by default.\n\n";
  }
}

std::string page() {
  std::string o =
      "# MFMA lane layouts (gfx950)\n\n"
      "Generated by `hipasm-mfma-layouts` (tools/mfma_layouts.cpp) from the atom data that kernels\n"
      "use (`mfma_atom_of(\"name\")`: include/hipasm/mfma_atom.hpp, targets/gfx950/mfma_atoms.hpp);\n"
      "the docs.mfma_layouts test fails when this page and the data differ. Regenerate it with\n"
      "`build/bin/hipasm-mfma-layouts > docs/mfma-layouts.md`. gfx942 has the same atoms less the\n"
      "CDNA4 ones (the last ten) and plus the two xf32 ones, with the same layouts.\n\n"
      "Each row is a group of lanes: `i 0-15` means lane (first + n) holds row (column) n of that\n"
      "range; `k 0-31` the k of its elements in register order (element 0 at bit 0 of the first\n"
      "VGPR, each element as wide as its type); C/D's rows likewise, one f32 (i32, f64) element a\n"
      "register (two for f64). A is M x K (row i, k), B is K x N (k, column j), C/D is M x N.\n"
      "A walk-through of the layout with a running kernel: [gfx950.md](gfx950.md).\n\n";
  for (const mfma_atom& x : hipasm::mfma_atoms()) atom_section(o, x);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string want = page();
  if (argc == 1) {
    std::fputs(want.c_str(), stdout);
    return 0;
  }
  if (argc == 3 && std::string(argv[1]) == "--check") {
    std::ifstream f(argv[2]);
    if (!f) {
      std::fprintf(stderr, "hipasm-mfma-layouts: cannot read %s\n", argv[2]);
      return 2;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string got = ss.str();
    if (got == want) {
      std::printf("%s matches the atom data\n", argv[2]);
      return 0;
    }
    std::istringstream a(got), b(want);
    std::string la, lb;
    int n = 1;
    for (;; ++n) {
      const bool ea = !std::getline(a, la), eb = !std::getline(b, lb);
      if (ea || eb || la != lb) break;
    }
    std::fprintf(stderr, "hipasm-mfma-layouts: %s:%d differs from the atom data (regenerate: hipasm-mfma-layouts > %s)\n"
                 "  file: %s\n  data: %s\n", argv[2], n, argv[2], la.c_str(), lb.c_str());
    return 1;
  }
  std::fprintf(stderr, "usage: hipasm-mfma-layouts [--check FILE]\n");
  return 2;
}
