// The library's emitter (emit.hpp, owned by the passes) prints what the checker accepts in a
// form llvm-mc-22 accepts: every table entry with legal operands, with every legal modifier,
// and with every legal operand kind per slot (so e32/e64 choice, literals, vcc/exec/m0,
// DPP/SDWA and cache bits are all exercised). The printed text is the emitter's; the oracle
// is llvm-mc. Skipped until emit.hpp exists.
#include <catch2/catch.hpp>

#if __has_include("hipasm/emit.hpp")
#include "hipasm/emit.hpp"
#include "isa_test_util.hpp"

using namespace isa_test;

namespace {
struct string_sink {
  std::string s;
  void put(char c) { s += c; }
  void put(std::string_view v) { s.append(v.data(), v.size()); }
};

std::string emit_line(const instr& in) {
  static const function fn{};
  string_sink out;
  hipasm::detail::print_instr(out, fn, hipasm::isa_view{hipasm::active_target::table.data(), static_cast<uint32_t>(hipasm::active_target::table.size())}, in,
                              emit_options{.comments = false});
  std::string t = out.s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  t.erase(0, t.find_first_not_of(" \t"));
  return t;
}

struct reg_alloc2 {
  int s = 20, v = 20, a = 20;
  operand take(reg_class c, int dw) {
    int& next = c == reg_class::sgpr ? s : c == reg_class::vgpr ? v : a;
    int align = c == reg_class::sgpr ? (dw >= 4 ? 4 : dw == 2 ? 2 : 1) : (dw >= 2 ? 2 : 1);
    next = (next + align - 1) / align * align;
    operand o = reg(c, next, dw);
    next += dw;
    return o;
  }
};

instr legal_instance(uint16_t op) {
  const instr_desc& d = active_target::table[op];
  instr in;
  in.op = op;
  in.num_operands = d.num_operands;
  reg_alloc2 ra;
  for (int i = 0; i < d.num_operands; ++i) {
    const uint16_t c = d.operands[i].classes;
    const int dw = d.operands[i].dwords;
    operand o;
    if (c & oc_vgpr) o = ra.take(reg_class::vgpr, dw);
    else if (c & oc_agpr) o = ra.take(reg_class::agpr, dw);
    else if (c & oc_off) o = isa_test::off();
    else if (c & oc_sgpr) o = ra.take(reg_class::sgpr, dw);
    else if (c & oc_vcc) o = special(dw == 2 ? special_reg::vcc : special_reg::vcc_lo);
    else if (c & oc_exec) o = special(dw == 2 ? special_reg::exec : special_reg::exec_lo);
    else if (c & oc_m0) o = special(special_reg::m0);
    else if (c & oc_simm16) o = imm(0);
    else if (c & oc_inline) o = imm(1);
    else o = imm(0x1234);
    in.ops[i] = o;
  }
  if (d.enc == encoding::mubuf)
    for (int i = 0; i < d.num_operands; ++i)
      if ((d.operands[i].classes & oc_off) && in.ops[i].is_reg()) edit_modifiers(in, [&](modifiers& m_) { m_.offen = true; });
  if (d.has(f_returns)) edit_modifiers(in, [&](modifiers& m_) { m_.sc0 = true; });
  if (d.has(f_needs_gds)) edit_modifiers(in, [&](modifiers& m_) { m_.gds = true; });
  if (d.enc == encoding::mubuf && d.has(f_lds_dma)) edit_modifiers(in, [&](modifiers& m_) { m_.lds = true; });
  for (int i = d.num_operands - 1; i > 0 && !check(d, in).ok; --i)
    if (in.ops[i].k == operand::kind::phys && in.ops[i].cls == reg_class::sgpr &&
        (d.operands[i].classes & oc_inline) && d.operands[i].role == operand_role::use)
      in.ops[i] = imm(1);
  return in;
}
}  // namespace

TEST_CASE("isa_emitter_assembles: the emitter's text of every checked instruction assembles") {
  std::vector<std::string> lines;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    if (d.has(f_branch)) continue;  // labels need a function with blocks
    const instr base = legal_instance(op);
    if (!check(d, base).ok) continue;
    std::vector<instr> vs{base};
    // each legal operand kind per slot
    for (int i = 0; i < d.num_operands; ++i) {
      int dw = d.operands[i].dwords;
      int sa = dw >= 4 ? 4 : dw == 2 ? 2 : 1;
      for (operand o : {reg(reg_class::sgpr, (80 + sa - 1) / sa * sa, dw), reg(reg_class::vgpr, 200, dw),
                        reg(reg_class::agpr, 200, dw), imm(1), imm(0x1234), imm(0x3f000000),
                        special(dw == 2 ? special_reg::vcc : special_reg::vcc_lo),
                        special(dw == 2 ? special_reg::exec : special_reg::exec_lo), special(special_reg::m0)}) {
        if (o.is_reg() && o.cls == reg_class::sgpr && static_cast<int>(o.value) + dw > 102) continue;
        instr in = base;
        in.ops[i] = o;
        vs.push_back(in);
      }
    }
    // each legal modifier
    for (int k = 0; k < 13; ++k) {
      instr in = base;
      modifiers m = in.mods.unpack();
      switch (k) {
        case 0: m.offset = 16; break;
        case 1: m.offset1 = 2; break;
        case 2: m.sc0 = true; break;
        case 3: m.sc1 = true; break;
        case 4: m.nt = true; break;
        case 5: m.clamp = true; break;
        case 6: m.omod = 3; break;
        case 7: m.op_sel = 1; break;
        case 8: m.dpp.ctrl = 0x111; break;
        case 9: m.sdwa = {.on = true, .dst_sel = 6, .dst_unused = 0, .src0_sel = 4, .src1_sel = 6}; break;
        case 10: m.cbsz = 1; m.abid = 1; break;
        case 11: m.neg_lo = 1; break;
        case 12: m.bitop3 = 0x96; break;
      }
      in.mods = m;
      vs.push_back(in);
    }
    for (const instr& in : vs)
      if (check(d, in).ok) lines.push_back(emit_line(in));
  }
  REQUIRE(lines.size() > 5000);
  auto res = assemble(lines);
  std::vector<std::string> rejected;
  for (size_t i = 0; i < res.size(); ++i)
    if (!res[i].ok) rejected.push_back(lines[i] + "  -> " + res[i].text);
  WARN("emitted lines: " << lines.size() << ", rejected by llvm-mc: " << rejected.size());
  for (size_t k = 0; k < rejected.size() && k < 20; ++k) UNSCOPED_INFO(rejected[k]);
  CHECK(rejected.empty());
}

// MUBUF addressing, every form: vaddr off / offen / idxen / idxen offen (a VGPR pair: index,
// offset), soffset an SGPR or 0, offset 0 or 4095, each with llvm-mc-22's text holding the
// same flags. The modifier list above sets one flag at a time, so the two together were never
// printed: 'offen idxen' (LLVM wants 'idxen offen') reached the rotary kernel before a test
// (this test fails on that order)
TEST_CASE("isa_emitter_assembles: every MUBUF addressing form, in LLVM's flag order") {
  std::vector<std::string> lines;
  std::vector<std::pair<bool, bool>> flags;  // (idxen, offen) of each line
  int instrs = 0;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    if (d.enc != encoding::mubuf) continue;
    const instr base = legal_instance(op);
    if (!check(d, base).ok) continue;
    int vaddr = -1, soff = -1;
    for (int i = 0; i < d.num_operands; ++i) {
      if ((d.operands[i].classes & oc_off) && (d.operands[i].classes & oc_vgpr)) vaddr = i;
      else if ((d.operands[i].classes & oc_sgpr) && d.operands[i].dwords == 1 && d.operands[i].role == operand_role::use)
        soff = i;
    }
    if (vaddr < 0) continue;
    ++instrs;
    for (int form = 0; form < 4; ++form)
      for (int s = 0; s < 2; ++s)
        for (int o : {0, 4095}) {
          instr in = base;
          const bool idxen = form & 1, offen = form & 2;
          edit_modifiers(in, [&](modifiers& m_) {
            m_.idxen = idxen;
            m_.offen = offen;
            m_.offset = o;
          });
          in.ops[vaddr] = form == 0 ? isa_test::off() : reg(reg_class::vgpr, 40, form == 3 ? 2 : 1);
          if (soff >= 0) in.ops[soff] = s == 0 ? reg(reg_class::sgpr, 7, 1) : imm(0);
          const auto c = check(d, in);
          INFO(d.name << " form " << form << ": " << std::string(c.message.view()));
          REQUIRE(c.ok);
          lines.push_back(emit_line(in));
          flags.emplace_back(idxen, offen);
        }
  }
  REQUIRE(instrs > 40);
  auto res = assemble(lines);
  REQUIRE(res.size() == lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    INFO(lines[i] << "  -> " << res[i].text);
    REQUIRE(res[i].ok);
    const std::string& t = res[i].text;
    CHECK((t.find(" idxen") != std::string::npos) == flags[i].first);
    CHECK((t.find(" offen") != std::string::npos) == flags[i].second);
  }
}
// gfx950's f8f6f4 MFMAs: the A (B) width follows the cbsz (blgp) format code (fp8 / bf8 8
// dwords, fp6 / bf6 6, fp4 4). Every code pair with the widths the table gives: check()
// accepts, llvm-mc-22 assembles the emitter's text; each slot one width off (the fp8 width
// for an fp4 format, and so on): check() rejects and llvm-mc-22 rejects the same text; codes
// 5..7 name no format and check() rejects them.
TEST_CASE("isa_emitter_assembles: f8f6f4 MFMA A / B widths follow cbsz / blgp") {
  std::vector<std::string> ok_lines, bad_lines;
  int mfmas = 0;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    if (d.num_operands < 3 || d.operands[1].width_by != operand_width_by::cbsz) continue;
    REQUIRE(d.operands[2].width_by == operand_width_by::blgp);
    ++mfmas;
    INFO(d.name);
    for (unsigned fa = 0; fa < 8; ++fa)
      for (unsigned fb = 0; fb < 8; ++fb) {
        const int wa = f8f6f4_dwords(fa), wb = f8f6f4_dwords(fb);
        for (int bad = 0; bad < 3; ++bad) {  // 0: the widths; 1: A off; 2: B off
          const int a = wa == 0 ? 8 : bad == 1 ? (wa == 8 ? 4 : 8) : wa;
          const int b = wb == 0 ? 8 : bad == 2 ? (wb == 4 ? 6 : 4) : wb;
          instr in;
          in.op = op;
          in.num_operands = d.num_operands;
          const int c = d.operands[0].dwords;
          in.ops[0] = reg(reg_class::vgpr, 0, c);
          in.ops[1] = reg(reg_class::vgpr, 32, a);
          in.ops[2] = reg(reg_class::vgpr, 48, b);
          in.ops[3] = reg(reg_class::vgpr, 0, c);
          if (d.num_operands == 6) {  // the scaled forms: scale A, scale B
            in.ops[4] = reg(reg_class::vgpr, 60, 1);
            in.ops[5] = reg(reg_class::vgpr, 61, 1);
          }
          modifiers m;
          m.cbsz = static_cast<uint8_t>(fa);
          m.blgp = static_cast<uint8_t>(fb);
          in.mods = m;
          const check_result r = check(d, in);
          const bool legal = wa && wb && bad == 0;
          INFO("cbsz " << fa << " blgp " << fb << " A " << a << " B " << b << ": " << std::string(r.message.view()));
          CHECK(r.ok == legal);
          if (legal) ok_lines.push_back(emit_line(in));
          else if (wa && wb) bad_lines.push_back(print(d, in, false));
        }
      }
  }
  // v_mfma_f32_{16x16x128,32x32x64}_f8f6f4 and their v_mfma_scale_ forms
  if (active_target::name == std::string_view("gfx950")) CHECK(mfmas == 4);
  else CHECK(mfmas == 0);
  if (!mfmas) return;
  const auto ok = assemble(ok_lines), bad = assemble(bad_lines);
  for (size_t i = 0; i < ok.size(); ++i) {
    INFO(ok_lines[i] << "  -> " << ok[i].text);
    CHECK(ok[i].ok);
  }
  for (size_t i = 0; i < bad.size(); ++i) {
    INFO(bad_lines[i]);
    CHECK_FALSE(bad[i].ok);
  }
  CHECK(ok_lines.size() == 4 * 25);
  CHECK(bad_lines.size() == 4 * 25 * 2);
}
// gfx950's scaled MFMAs print as one mnemonic and assemble to v_mfma_ld_scale_b32 + the f8f6f4
// MFMA (16 bytes). op_sel (low bit) and op_sel_hi (high bit) pick the byte of each scale VGPR;
// llvm-mc's default is op_sel_hi:[0,0,0] (byte 0), so the emitter's text must carry the user's
// bits whatever their value. Oracle: llvm-mc-22's encoding of the hand-written text, and the
// VOP3P fields of the first dword pair (OP_SEL bits 11.., OP_SEL_HI bits 59..).
TEST_CASE("isa_emitter_assembles: scaled MFMA scale-byte selects") {
  if (active_target::name != std::string_view("gfx950")) return;
  std::vector<std::string> emitted, hand;
  std::vector<int> sels;
  for (const char* name : {"v_mfma_scale_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"}) {
    uint16_t op = 0;
    while (op < active_target::table.size() && active_target::table[op].name != std::string_view(name)) ++op;
    REQUIRE(op < active_target::table.size());
    const instr_desc& d = active_target::table[op];
    REQUIRE(d.num_operands == 6);
    const int c = d.operands[0].dwords;
    for (int sa = 0; sa < 4; ++sa)
      for (int sb = 0; sb < 4; ++sb) {
        instr in;
        in.op = op;
        in.num_operands = 6;
        in.ops[0] = reg(reg_class::vgpr, 0, c);
        in.ops[1] = reg(reg_class::vgpr, 32, 8);
        in.ops[2] = reg(reg_class::vgpr, 48, 8);
        in.ops[3] = reg(reg_class::vgpr, 0, c);
        in.ops[4] = reg(reg_class::vgpr, 60, 1);
        in.ops[5] = reg(reg_class::vgpr, 61, 1);
        modifiers m;
        m.op_sel = static_cast<uint8_t>((sa & 1) | (sb & 1) << 1);
        m.op_sel_hi = static_cast<uint8_t>((sa >> 1) | (sb >> 1) << 1);
        in.mods = m;
        const check_result r = check(d, in);
        INFO(name << " " << sa << " " << sb << ": " << std::string(r.message.view()));
        REQUIRE(r.ok);
        emitted.push_back(emit_line(in));
        hand.push_back(std::string(name) + " v[0:" + std::to_string(c - 1) + "], v[32:39], v[48:55], v[0:" +
                       std::to_string(c - 1) + "], v60, v61 op_sel:[" + std::to_string(sa & 1) + "," +
                       std::to_string(sb & 1) + ",0] op_sel_hi:[" + std::to_string(sa >> 1) + "," +
                       std::to_string(sb >> 1) + ",0]");
        sels.push_back(sa | sb << 2);
      }
  }
  const auto e = assemble(emitted), h = assemble(hand);
  for (size_t i = 0; i < e.size(); ++i) {
    INFO(emitted[i] << "  /  " << hand[i]);
    REQUIRE(e[i].ok);
    REQUIRE(h[i].ok);
    CHECK(e[i].encoding == h[i].encoding);
    std::vector<unsigned> b;
    for (size_t p = 0; (p = e[i].encoding.find("0x", p)) != std::string::npos; p += 2)
      b.push_back(static_cast<unsigned>(std::stoul(e[i].encoding.substr(p + 2, 2), nullptr, 16)));
    REQUIRE(b.size() == 16);
    CHECK((b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) >> 16 == 0xD3AC);  // v_mfma_ld_scale_b32
    const int sa = sels[i] & 3, sb = sels[i] >> 2;
    CHECK(((b[1] >> 3) & 3) == ((sa & 1) | (sb & 1) << 1));
    CHECK(((b[7] >> 3) & 3) == ((sa >> 1) | (sb >> 1) << 1));
  }
}
// bitop3 (gfx950's v_bitop3_b32 / _b16): only these accept it, and every truth table 0..255 as
// the emitter prints it assembles, prints back the same and is encoded where the CDNA4 ISA puts
// it: table bits [2:0] in the neg field (bits 63:61), [5:3] in abs (10:8), [7:6] in omod
// (60:59), the rest of the word as with no table.
TEST_CASE("isa_emitter_assembles: bitop3, every truth table") {
  std::vector<uint16_t> ops;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    const bool is_bitop3 = std::string_view(d.name).starts_with("v_bitop3_");
    INFO(d.name);
    CHECK(d.accepts(m_bitop3) == is_bitop3);
    if (is_bitop3) ops.push_back(op);
  }
  if (std::string_view(active_target::name) != "gfx950") return;
  REQUIRE(ops.size() == 2);
  std::vector<std::string> lines;
  for (uint16_t op : ops)
    for (unsigned t = 0; t < 256; ++t) {
      instr in = legal_instance(op);
      edit_modifiers(in, [&](modifiers& m_) { m_.bitop3 = static_cast<uint16_t>(t); });
      INFO(active_target::table[op].name << " bitop3 " << t);
      REQUIRE(check(active_target::table[op], in).ok);
      lines.push_back(emit_line(in));
    }
  const auto word = [](const std::string& enc) {
    uint64_t w = 0;
    int k = 0;
    for (size_t p = 0; p < enc.size(); p = enc.find(',', p) == std::string::npos ? enc.size() : enc.find(',', p) + 1)
      w |= std::strtoull(enc.c_str() + p, nullptr, 16) << (8 * k++);
    return w;
  };
  auto res = assemble(lines);
  REQUIRE(res.size() == lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const uint64_t t = i % 256;
    INFO(lines[i] << "  -> " << res[i].text);
    REQUIRE(res[i].ok);
    CHECK(res[i].text == lines[i]);
    const uint64_t w = word(res[i].encoding), w0 = word(res[i - t].encoding);
    constexpr uint64_t field = 7ull << 61 | 7ull << 8 | 3ull << 59;
    CHECK((w & field) == ((t & 7) << 61 | (t >> 3 & 7) << 8 | (t >> 6) << 59));
    CHECK((w & ~field) == (w0 & ~field));
  }
  CHECK(lines[0x96].ends_with("bitop3:0x96"));
}
#endif
