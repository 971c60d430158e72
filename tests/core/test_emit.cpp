// Emission against llvm-mc-22: every printed line assembles for gfx942, the assembler's
// canonical rendering of it names the same instruction with the same operands and
// modifiers, and disassembling the encoding gives that rendering back.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

// Tokens of an instruction line: no comment, mnemonic without _e32/_e64, numbers as
// signed 32-bit decimals (llvm-mc prints 0x10 where hipasm prints 16, -16 for 0xfffffff0).
std::vector<std::string> tokens(std::string line) {
  line = line.substr(0, line.find(';'));
  std::vector<std::string> t;
  std::regex tok("[A-Za-z_][A-Za-z_0-9.]*|0x[0-9a-fA-F]+|-?[0-9]+|\\S");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), tok); it != std::sregex_iterator(); ++it) {
    std::string s = it->str();
    if (t.empty()) {
      for (const char* suf : {"_e32", "_e64"})
        if (s.size() > 4 && s.substr(s.size() - 4) == suf) s = s.substr(0, s.size() - 4);
    } else if (std::regex_match(s, std::regex("0x[0-9a-fA-F]+|-?[0-9]+"))) {
      const long long v = std::stoll(s, nullptr, 0);
      s = std::to_string(static_cast<int32_t>(static_cast<uint32_t>(v)));
    }
    t.push_back(s);
  }
  // A lone "-" before a number is part of it.
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == "-" && i + 1 < t.size() && std::regex_match(t[i + 1], std::regex("-?[0-9]+"))) {
      out.push_back(std::to_string(-std::stoll(t[i + 1])));
      ++i;
    } else {
      out.push_back(t[i]);
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + " ";
  return s;
}

}  // namespace

TEST_CASE("emit: every encoding family round-trips through llvm-mc-22 (assemble, disassemble)") {
  kb k("emit");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto s2 = k.s(2, "p");
  auto s4 = k.s(4, "rsrc");
  auto s1 = k.s(1, "n");
  auto sc = k.s(2, "cond");
  auto v1 = k.v(1, "x");
  auto v2 = k.v(2, "pair");
  auto v4 = k.v(4, "quad");
  auto vy = k.v(1, "y");
  auto bz = k.v(1, "z");
  auto acc = k.a(16, "acc");
  const uint32_t tail = k.block();
  k.edge(0, tail);
  k.edge(0, tail);
  edit_modifiers(k.op(0, "s_load_dwordx2", {R(s2), R(kern), I(16)}), [&](modifiers& m_) { m_.glc = true; });
  k.op(0, "s_load_dwordx4", {R(s4), R(kern), I(0x100)});
  k.op(0, "s_movk_i32", {R(s1), I(0x1234)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "s_add_u32", {R(s1), R(s1), I(0xfffffff0)});
  k.op(0, "s_mul_i32", {R(s1), R(s1), I(100000)});
  k.op(0, "v_mov_b32", {R(v1), I(-5)});
  k.op(0, "v_add_u32", {R(vy), I(0x12345), R(tid)});
  edit_modifiers(k.op(0, "v_add_f32", {R(vy), NEG(ABS(R(vy))), R(v1)}), [&](modifiers& m_) { m_.clamp = true; });
  edit_modifiers(k.op(0, "v_mul_f32", {R(v1), R(vy), R(v1)}), [&](modifiers& m_) { m_.omod = 1; });
  {
    auto& in = k.op(0, "v_mov_b32", {R(vy), R(v1)});
    edit_modifiers(in, [&](modifiers& m_) { m_.dpp.ctrl = 0x1b; });  // quad_perm:[3,2,1,0]
    edit_modifiers(in, [&](modifiers& m_) { m_.dpp.bound_ctrl = true; });
  }
  edit_modifiers(k.op(0, "v_add_f32", {R(vy), R(v1), R(vy)}), [&](modifiers& m_) { m_.dpp.ctrl = 0x111; });  // row_shr:1
  {
    auto& in = k.op(0, "v_add_f32", {R(v1), R(vy), R(v1)});
    edit_modifiers(in, [&](modifiers& m_) { m_.sdwa.on = true; });
    edit_modifiers(in, [&](modifiers& m_) { m_.sdwa.dst_sel = 5; });
    edit_modifiers(in, [&](modifiers& m_) { m_.sdwa.dst_unused = 2; });
    edit_modifiers(in, [&](modifiers& m_) { m_.sdwa.src0_sel = 4; });
  }
  {
    auto& in = k.op(0, "v_pk_fma_f16", {R(vy), R(v1), R(vy), R(v1)});
    edit_modifiers(in, [&](modifiers& m_) { m_.op_sel = 1; });
    edit_modifiers(in, [&](modifiers& m_) { m_.op_sel_hi = 6; });
    edit_modifiers(in, [&](modifiers& m_) { m_.neg_lo = 2; });
  }
  k.op(0, "v_cmp_gt_u32", {SP(special_reg::vcc), R(tid), I(7)});
  k.op(0, "v_cmp_eq_u32", {R(sc), R(tid), R(v1)});
  k.op(0, "v_cndmask_b32", {R(v1), R(v1), R(vy), R(sc)});
  k.op(0, "v_lshlrev_b32", {R(v1), I(2), R(tid)});
  k.op(0, "ds_write_b32", {R(v1), R(vy)}).mods.offset = 64;
  {
    auto& in = k.op(0, "ds_read2_b32", {R(v2), R(v1)});
    in.mods.offset = 1;
    in.mods.offset1 = 3;
  }
  k.op(0, "ds_read_b128", {R(v4), R(v1)}).mods.offset = 16;
  k.op(0, "s_waitcnt", {I(0xc07f)});
  {
    auto& in = k.op(0, "global_load_dword", {R(vy), R(v2), OFF()});
    in.mods.offset = -16;
    edit_modifiers(in, [&](modifiers& m_) { m_.sc0 = m_.sc1 = m_.nt = true; });
  }
  k.op(0, "global_load_dword", {R(vy), R(v1), R(s2)}).mods.offset = 32;
  {
    auto& in = k.op(0, "buffer_load_dword", {R(bz), R(v1), R(s4), I(0)});
    edit_modifiers(in, [&](modifiers& m_) { m_.offen = true; });
    in.mods.offset = 8;
  }
  k.op(0, "s_waitcnt", {I(0x0f70)});
  k.op(0, isa::gfx942_op::global_atomic_add_rtn, {R(vy), R(v1), R(vy), R(s2)});
  k.op(0, "s_waitcnt", {I(0x0f70)});
  for (int j = 0; j < 16; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  {
    auto& in = k.op(0, "v_mfma_f32_32x32x8_f16", {R(acc), R(v2), R(v4, 2, 2), R(acc)});
    edit_modifiers(in, [&](modifiers& m_) { m_.cbsz = 1; });
    edit_modifiers(in, [&](modifiers& m_) { m_.abid = 1; });
    edit_modifiers(in, [&](modifiers& m_) { m_.blgp = 2; });
  }
  k.op(0, "s_cmp_lg_u32", {R(s1), I(0)});
  k.op(0, "s_cbranch_scc1", {L(tail)});
  k.op(tail, "v_accvgpr_read_b32", {R(vy), R(acc, 3, 1)});
  k.op(tail, "global_store_dwordx4", {R(v1), R(v4), R(s2)});
  k.op(tail, "global_store_dword", {R(v1), R(vy), R(s2)}).mods.offset = 4;
  k.op(tail, "global_store_dword", {R(v1), R(bz), R(s2)}).mods.offset = 8;
  k.op(tail, "global_store_dwordx4", {R(v1), R(acc, 4, 4), R(s2)}).mods.offset = 16;
  k.op(tail, "s_endpgm", {});

  const auto st = compile_function(k.fn);
  INFO(st.error.view());
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  REQUIRE(assemble_errors(text, "emit") == "");

  // Canonical rendering and encodings.
  const std::string path = "/tmp/hipasm_emit_" + std::to_string(::getpid()) + ".s";
  std::ofstream(path) << text;
  const std::string shown = run("llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding " + path + " 2>&1");
  std::remove(path.c_str());
  std::vector<std::string> canon, bytes;
  for (const auto& l : lines_of(shown)) {
    std::smatch m;
    if (!std::regex_search(l, m, std::regex("^\\s+(\\S.*?)\\s*; encoding: \\[([^\\]]*)\\]"))) continue;
    if (m[2].str().find('A') != std::string::npos) continue;  // branch fixups: no bytes yet
    canon.push_back(m[1].str());
    bytes.push_back(std::regex_replace(m[2].str(), std::regex(","), " "));
  }
  // hipasm's lines (instructions only, labels and branches skipped like above).
  std::vector<std::string> ours;
  for (const auto& l : lines_of(text)) {
    if (l.empty() || l[0] != '\t' || l.find("s_cbranch") != std::string::npos) continue;
    ours.push_back(l);
  }
  REQUIRE(ours.size() == canon.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    INFO("hipasm: " << ours[i] << "\nllvm-mc: " << canon[i]);
    CHECK(join(tokens(ours[i])) == join(tokens(canon[i])));
  }
  // Disassemble the encodings: the same canonical text.
  std::string enc;
  for (const auto& b : bytes) enc += b + "\n";
  const std::string epath = "/tmp/hipasm_emit_bytes_" + std::to_string(::getpid()) + ".txt";
  std::ofstream(epath) << enc;
  const std::string dis = run("llvm-mc-22 --disassemble -arch=amdgcn -mcpu=gfx942 " + epath + " 2>&1");
  std::remove(epath.c_str());
  std::vector<std::string> back;
  for (const auto& l : lines_of(dis))
    if (l.size() > 1 && l[0] == '\t' && l[1] != '.') back.push_back(l.substr(1));
  REQUIRE(back.size() == canon.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    INFO("assembled: " << canon[i] << "\ndisassembled: " << back[i]);
    CHECK(join(tokens(back[i])) == join(tokens(canon[i])));
  }
}

TEST_CASE("emit: a location is printed where it changes and after each label") {
  kb k("loc");
  auto x = k.v(1, "x");
  auto y = k.v(1);
  k.op(0, "v_mov_b32", {R(x), I(1)});                  // test.cpp:101
  k.op(0, "v_mov_b32", {R(y), I(2)}).loc.line = 101;   // the same line again
  const uint32_t b1 = k.block();
  k.edge(0, b1);
  k.op(b1, "v_add_u32", {R(x), R(x), R(y)}).loc.line = 101;  // after a label: printed
  k.op(b1, "v_add_u32", {R(y), R(x), R(y)}).loc.line = 101;
  k.op(b1, "v_add_u32", {R(x), R(x), R(y)}).loc = src_loc{"other.cpp", 101};  // another file
  k.op(b1, "s_cbranch_scc0", {L(b1)}).loc.line = 101;
  k.op(b1, "s_endpgm", {});                            // test.cpp:107
  const std::string text = to_text(k.fn, true);
  INFO(text);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() == 8);
  CHECK(lines[0].ends_with(" ; test.cpp:101 x"));
  CHECK(lines[1].find(';') == std::string::npos);
  CHECK(lines[2] == ".Lloc_bb1:");
  CHECK(lines[3].ends_with(" ; test.cpp:101 x"));
  CHECK(lines[4].ends_with(" ; x"));
  CHECK(lines[5].ends_with(" ; other.cpp:101 x"));
  CHECK(lines[6].ends_with(" ; test.cpp:101"));
  CHECK(lines[7].ends_with(" ; test.cpp:107"));
  // The printed size is the printed text's.
  CHECK(printed_size(k.fn, k.isa, emit_options{true}) == text.size());
}

TEST_CASE("emit: comments are switchable; size first, then exactly that many characters") {
  kb k("cmt");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto x = k.v(1, "x");
  k.op(0, "v_add_u32", {R(x), I(1), R(tid)});
  k.op(0, "global_store_dword", {R(tid), R(x), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string with = to_text(st.fn, true), without = to_text(st.fn, false);
  CHECK(with.find("; test.cpp:101 x tid") != std::string::npos);
  CHECK(without.find(';') == std::string::npos);
  constexpr auto n = [] {
    kb k2("cmt");
    auto tid2 = k2.reg(reg_class::vgpr, 1, "tid", 0);
    auto x2 = k2.v(1, "x");
    auto out2 = k2.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    k2.op(0, "v_add_u32", {R(x2), I(1), R(tid2)});
    k2.op(0, "global_store_dword", {R(tid2), R(x2), R(out2)});
    const auto st2 = compile_function(k2.fn);
    return printed_size(st2.fn, st2.isa, emit_options{false});
  }();
  CHECK(n == without.size());
}
