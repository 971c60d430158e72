#!/usr/bin/env python3
"""Generate hipasm's per-target instruction tables and mnemonic surfaces from llvm-mc-22.

  tools/gen_isa_table.py            # writes include/hipasm/targets/<arch>/{isa,mnemonics}.hpp
  tools/gen_isa_table.py --out DIR  # writes DIR/<arch>/{isa,mnemonics}.hpp (tests/isa diffs them)

for every arch of ARCHS. A target's mnemonic surface also names the instructions only the
other targets have: calling one fails the kernel's build naming the line and the target.

1. enumerate: every opcode of every encoding family is disassembled (isa/enumerate.py);
2. probe: each instruction's operand slots, forms and modifiers are learnt by
   assembling variants (isa/probe.py);
3. flags: properties and implicit registers from the family and name (isa/flags.py),
   MFMA pass counts from llvm-mca-22;
4. emit the C++ headers (sorted by name; <arch>_op indexes the table).
Runs in well under a minute; needs llvm-mc-22 and llvm-mca-22 on PATH."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from isa import enumerate as enum_ops  # noqa: E402
from isa import flags as fl  # noqa: E402
from isa import mc  # noqa: E402
from isa import probe  # noqa: E402
from isa.parse import classify  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "include", "hipasm", "targets")
ARCHS = ["gfx942", "gfx950"]

CLASS_BITS = {"sgpr": 1 << 0, "vgpr": 1 << 1, "agpr": 1 << 2, "inline": 1 << 3, "literal": 1 << 4,
              "label": 1 << 5, "simm16": 1 << 6, "vcc": 1 << 7, "m0": 1 << 8, "exec": 1 << 9,
              "scc": 1 << 10, "off": 1 << 11}
FLAG_BITS = ["salu", "valu", "smem", "vmem", "ds", "flat", "mfma", "xdl", "dgemm", "trans", "load",
             "store", "atomic", "branch", "terminator", "barrier", "waitcnt", "side_effect",
             "reads_exec", "writes_exec", "reads_vcc", "writes_vcc", "reads_scc", "writes_scc",
             "reads_m0", "writes_m0", "has_e64", "has_dpp", "has_sdwa", "cmpx", "lds_dma", "readlane",
             "permlane", "lgkm", "vm", "can_read_agpr", "acc_tied", "returns", "needs_gds",
             "cvt_byte_sel", "cvt_sr_fp4"]
MOD_BITS = ["offset", "offset01", "glc", "slc", "nt", "sc0", "sc1", "lds", "idxen", "offen", "clamp",
            "omod", "neg_abs", "op_sel", "op_sel_hi", "neg_lo_hi", "dpp", "sdwa", "cbsz_abid_blgp",
            "gds", "waitcnt", "blgp", "sdwa_dst", "abid", "bitop3"]
# Hazard classes (isa::hazard_class, in this order): what the hazard rules tell apart by
# instruction beyond the flags (LLVM's GCNHazardRecognizer tests these opcodes by name).
HZ_BITS = ["smfmac", "dpp", "cmpx", "setreg", "getreg", "rfe", "div_fmas", "dot", "readlane",
           "readfirstlane", "writelane", "permlane", "fma64", "mem_store", "nop", "m0_user"]
WIDTH_BY = ["fixed", "cbsz", "blgp"]  # order of isa::operand_width_by
IMM_KINDS = ["none", "b32", "f16", "i16", "b64", "f64", "simm16", "smem_offset", "label", "u4"]
LABEL_OPS = ("s_branch", "s_call_b64", "s_cbranch_i_fork")


def slot_info(e, i, role):
    """-> (classes, dwords, classes_e32, imm, src_mods, dwords_alt, width_by)."""
    classes, e32 = 0, 0
    imm = "none"
    width = None
    for form, (ops, _, _) in e.base.items():
        kind, w = classify(ops[i])
        if kind == "off" and e.family == "global":
            w = 2  # saddr: an SGPR pair when not off
        width = width or w
        if kind in ("sgpr", "vgpr", "agpr") and form in ("", "e64"):
            width = w
        acc = e.slot_acc.get((form, i), {})
        m = 0
        for cname, (ok, _) in acc.items():
            if ok and cname in CLASS_BITS:
                m |= CLASS_BITS[cname]
        if kind == "imm" and e.family in ("sopk", "smem", "sopp"):
            if e.name in LABEL_OPS or e.name.startswith("s_cbranch"):
                m |= CLASS_BITS["label"]
                imm = "label"
            else:
                m |= CLASS_BITS["simm16"]
                imm = "smem_offset" if e.family == "smem" and i == e.nops - 1 else "simm16"
        if kind == "imm" and e.family.startswith("vop"):
            # A VALU operand printed as an immediate is the K of v_fmaak/v_fmamk/v_madak/
            # v_madmk: always encoded as the literal, even when its value is inline.
            m = CLASS_BITS["literal"]
            imm = "f16" if e.name.endswith("f16") else "b32"
        classes |= m
        if form == "e32":
            e32 = m
        if acc.get("inline", (False,))[0] and not (kind == "imm" and e.family.startswith("vop")):
            imm = imm_kind(acc, w)
        if acc.get("u4_15", (False,))[0] and not acc.get("u4_16", (True,))[0]:
            classes = (classes & ~(CLASS_BITS["inline"] | CLASS_BITS["literal"])) | CLASS_BITS["simm16"]
            imm = "u4"  # a 4-bit field
    if e.family == "sopp" and e.nops:
        classes = CLASS_BITS["label"] if e.name in LABEL_OPS or e.name.startswith("s_cbranch") \
            else CLASS_BITS["simm16"]
        if imm != "u4":
            imm = "label" if classes == CLASS_BITS["label"] else "simm16"
    if e.family == "mubuf" and i == probe.address_slot(e):
        classes |= CLASS_BITS["off"]  # no offen/idxen: vaddr is `off`
    if imm == "none" and classes & (CLASS_BITS["inline"] | CLASS_BITS["literal"]):
        imm = "b32"
    if not ("e32" in e.base and len(e.base) > 1):
        e32 = 0
    sm = 0
    for name in e.slot_mods.get(i, ()):
        sm |= {"neg": 1, "abs": 2}[name]
    alt = 0
    if e.family == "global" and i == probe.address_slot(e) and classes & CLASS_BITS["vgpr"]:
        nxt = e.slot_acc.get(("", e.nops - 1), {})
        if nxt.get("sgpr", (False,))[0]:
            alt = 1
    by = WIDTH_BY.index(e.width_by.get(i, "fixed"))
    if by:
        width = max(probe.F8F6F4_DWORDS.values())  # (the widest: what the table states)
    return classes, width or 1, e32, imm, sm, alt, by


def imm_kind(acc, w):
    def inline(p):
        ok, nb = acc.get("imm_" + p, (False, 0))
        return ok and nb == acc["inline"][1]

    def accepted(p):
        return acc.get("imm_" + p, (False, 0))[0]
    if inline("f32"):
        return "b32"
    if inline("f16"):
        return "f16"
    if inline("f64") or w == 2:  # 64-bit operands (and f64 MFMA accumulators)
        return "f64" if accepted("lit64hi") and not inline("lit64hi") else "b64"
    return "i16" if w == 1 else "b32"


def hazard_classes(name):
    """The hazard classes of a mnemonic (bit mask of HZ_BITS)."""
    c = {
        "smfmac": name.startswith("v_smfmac"),
        "dpp": "_dpp" in name,
        "cmpx": name.startswith("v_cmpx"),
        "setreg": name.startswith("s_setreg"),
        "getreg": name.startswith("s_getreg"),
        "rfe": name == "s_rfe_b64",
        "div_fmas": name.startswith("v_div_fmas"),
        "dot": name.startswith("v_dot"),
        "readlane": name == "v_readlane_b32",
        "readfirstlane": name == "v_readfirstlane_b32",
        "writelane": name == "v_writelane_b32",
        "permlane": name.startswith("v_permlane"),
        "fma64": name in ("v_fma_f64", "v_fmac_f64"),
        # LLVM's mayStore of memory instructions: stores and atomics (the pass adds LDS-DMA)
        "mem_store": "_store" in name or "_atomic" in name,
        "nop": name == "s_nop",
        # M0 readers of checkReadM0Hazards on gfx9 by name (GDS and LDS-DMA are flags)
        "m0_user": name.startswith("s_movrel") or name in ("ds_read_addtid_b32", "ds_write_addtid_b32",
                                                          "s_sendmsg", "s_sendmsghalt", "s_ttracedata"),
    }
    return sum(1 << HZ_BITS.index(k) for k, v in c.items() if v)


def enum_name(e):
    return e.name + ("_" + e.variant if e.variant else "")


def gen(arch):
    t0 = time.time()
    mc.set_arch(arch)
    decoded = enum_ops.decoded()
    entries = probe.collect(decoded)
    entries = probe.choose_baselines(entries)
    # s_endpgm also decodes with its (ignored) immediate: keep the plain form.
    seen = {(e.name, e.variant) for e in entries if e.family == "sopp" and e.nops == 0}
    entries = [e for e in entries if not (e.family == "sopp" and e.nops and (e.name, e.variant) in seen)]
    for e in entries:
        e.roles = fl.roles(e)
        e.defs = sum(1 for r in e.roles if r != "use")
    probe.probe_slots(entries)
    probe.probe_mods(entries)
    probe.probe_format_widths(entries)
    passes = fl.mfma_passes(entries)
    entries.sort(key=lambda e: (e.name, e.variant != "", e.nops))
    names = [enum_name(e) for e in entries]
    assert len(set(names)) == len(names), "duplicate enum names"
    rows = []
    for e in entries:
        slots = [slot_info(e, i, e.roles[i]) for i in range(e.nops)]
        agpr_src = any(s[0] & CLASS_BITS["agpr"] for s, r in zip(slots, e.roles) if r != "def")
        fset = fl.flags(e, agpr_src)
        mods = set(e.mods)
        if any(s[4] for s in slots):
            mods.add("neg_abs")
        if mods & {"cbsz", "abid"}:
            mods.add("cbsz_abid_blgp")
        if e.family == "mubuf" and e.nops and e.variant != "lds" or e.variant == "lds":
            mods |= {"offen", "idxen"}  # MUBUF addressing (structural: set where vaddr is a VGPR)
        if e.family == "smem" and any(sl[0] & CLASS_BITS["sgpr"] and sl[3] == "smem_offset" for sl in slots):
            mods.add("offset")  # with an SGPR soffset, an immediate offset: may be added
        if e.name == "s_waitcnt":
            mods.add("waitcnt")
        if e.variant == "rtn":
            mods.add("sc0")
        if e.variant == "lds":
            mods.add("lds")
        if "gds" in next(iter(e.base.values()))[1]:
            mods.add("gds")  # GWS instructions exist only with gds
            fset |= {"side_effect", "reads_m0", "needs_gds"}
        nsrc = sum(1 for r in e.roles if r != "def")
        op_sel_len = (e.op_sel_len or nsrc + (0 if fl.encoding(e) == "vop3p" else 1)) if "op_sel" in mods else 0
        op_sel_hi_len = (e.op_sel_hi_len or nsrc) if "op_sel_hi" in mods or "neg_lo_hi" in mods else 0
        rows.append((e, slots, fset, mods, passes.get(e.name, 0), op_sel_len, op_sel_hi_len))
    print("gen_isa_table: %s: %d instructions in %.1f s" % (arch, len(rows), time.time() - t0))
    return rows


def main():
    rows = {arch: gen(arch) for arch in ARCHS}
    for arch in ARCHS:
        os.makedirs(os.path.join(OUT, arch), exist_ok=True)
        others = {}
        for other in ARCHS:
            if other == arch:
                continue
            have = {mnemonic_fn(e) for e, *_ in rows[arch]}
            for e, *_ in rows[other]:
                if mnemonic_fn(e) not in have:
                    others.setdefault((mnemonic_fn(e), e.nops), []).append(other)
        write_table(arch, rows[arch])
        write_mnemonics(arch, rows[arch], others)


ENCODINGS = ["sop1", "sop2", "sopk", "sopc", "sopp", "smem", "vop1", "vop2", "vopc", "vop3", "vop3p",
             "mfma", "ds", "flat", "global", "scratch", "mubuf"]  # order of isa::encoding
ROLES = {"def": 0, "use": 1, "def_use": 2}  # order of isa::operand_role


def write_table(arch, rows):
    """The table as packed integers unpacked by a constexpr function: a flat integer array
    parses several times faster than 1200 nested aggregate initialisers, and every kernel
    TU includes this header."""
    names = ""
    words = []
    for e, slots, fset, mods, np, osl, oshl in rows:
        fbits = 0
        for f in fset:
            fbits |= 1 << FLAG_BITS.index(f)
        mbits = 0
        for m in mods:
            if m in MOD_BITS:
                mbits |= 1 << MOD_BITS.index(m)
        assert len(names) < 1 << 16 and len(e.name) < 256 and np < 256 and osl < 16 and oshl < 16
        head = (len(names) | len(e.name) << 16 | ENCODINGS.index(fl.encoding(e)) << 24 | e.nops << 29
                | np << 32 | osl << 40 | oshl << 44 | hazard_classes(e.name) << 48)
        names += e.name
        words += [head, fbits, mbits]
        for s, r in zip(slots, e.roles):
            classes, dw, e32, imm, sm, alt, by = s
            assert classes < 1 << 12 and e32 < 1 << 12 and dw < 64 and alt < 64 and by < 4
            words.append(ROLES[r] | classes << 2 | dw << 14 | e32 << 20 | IMM_KINDS.index(imm) << 32
                         | sm << 36 | alt << 38 | by << 44)
    out = []
    w = out.append
    w("// GENERATED by tools/gen_isa_table.py from llvm-mc-22 (" + arch + "). Do not edit.")
    w("// Every " + arch + " instruction: operand classes/widths, immediate kinds, flags, modifiers,")
    w("// stored packed (see tools/gen_isa_table.py write_table) and unpacked at compile time.")
    w("#pragma once")
    w("#include <array>")
    w("#include <cstddef>")
    w("#include <cstdint>")
    w("#include <string_view>")
    w("")
    w('#include "../../isa/instr_desc.hpp"')
    w("")
    w("namespace hipasm::isa {")
    w("")
    w("// Index into " + arch + "_instrs. Variants that llvm-mc spells like their base (global/flat")
    w("// atomics that return the old value, MUBUF loads into LDS) carry a _rtn / _lds suffix here.")
    w("enum class " + arch + "_op : uint16_t {")
    line = "  "
    for e, *_ in rows:
        tok = enum_name(e) + ","
        if len(line) + len(tok) + 1 > 100:
            w(line.rstrip())
            line = "  "
        line += tok + " "
    w(line.rstrip())
    w("};")
    w("")
    w("inline constexpr std::size_t " + arch + "_num_instrs = %d;" % len(rows))
    w("")
    w("namespace detail::" + arch + "_tab {")
    w("// Mnemonics, concatenated.")
    text_names = []
    for i in range(0, len(names), 96):
        text_names.append('    "%s"' % names[i:i + 96])
    w("inline constexpr char names[] =\n" + "\n".join(text_names) + ";")
    w("// Per instruction: head (name offset:16 length:8 encoding:5 operands:3 | mfma passes:8 <<32 |")
    w("// op_sel_len:4 <<40 | op_sel_hi_len:4 <<44 | hazard classes:16 <<48), flags, modifiers, then one")
    w("// word per operand")
    w("// (role:2 classes:12 <<2 dwords:6 <<14 classes_e32:12 <<20 imm:4 <<32 src_mods:2 <<36")
    w("// dwords_alt:6 <<38 width_by:2 <<44).")
    w("inline constexpr uint64_t words[] = {")
    line = "  "
    for x in words:
        tok = "0x%x," % x
        if len(line) + len(tok) > 100:
            w(line.rstrip())
            line = "  "
        line += tok
    w(line.rstrip())
    w("};")
    w("constexpr std::array<instr_desc, " + arch + "_num_instrs> unpack() {")
    w("  std::array<instr_desc, " + arch + "_num_instrs> t{};")
    w("  std::size_t p = 0;")
    w("  for (std::size_t i = 0; i < " + arch + "_num_instrs; ++i) {")
    w("    const uint64_t h = words[p];")
    w("    instr_desc& d = t[i];")
    w("    d.name = std::string_view(names + (h & 0xffff), (h >> 16) & 0xff);")
    w("    d.enc = static_cast<encoding>((h >> 24) & 31);")
    w("    d.num_operands = static_cast<uint8_t>((h >> 29) & 7);")
    w("    d.mfma_passes = static_cast<uint8_t>((h >> 32) & 0xff);")
    w("    d.op_sel_len = static_cast<uint8_t>((h >> 40) & 15);")
    w("    d.op_sel_hi_len = static_cast<uint8_t>((h >> 44) & 15);")
    w("    d.hazard = static_cast<uint16_t>(h >> 48);")
    w("    d.flags = words[p + 1];")
    w("    d.modifiers = static_cast<uint32_t>(words[p + 2]);")
    w("    p += 3;")
    w("    for (int k = 0; k < d.num_operands; ++k, ++p) {")
    w("      const uint64_t v = words[p];")
    w("      operand_desc& o = d.operands[k];")
    w("      o.role = static_cast<operand_role>(v & 3);")
    w("      o.classes = static_cast<uint16_t>((v >> 2) & 0xfff);")
    w("      o.dwords = static_cast<uint8_t>((v >> 14) & 63);")
    w("      o.classes_e32 = static_cast<uint16_t>((v >> 20) & 0xfff);")
    w("      o.imm = static_cast<imm_kind>((v >> 32) & 15);")
    w("      o.src_mods = static_cast<uint8_t>((v >> 36) & 3);")
    w("      o.dwords_alt = static_cast<uint8_t>((v >> 38) & 63);")
    w("      o.width_by = static_cast<operand_width_by>((v >> 44) & 3);")
    w("    }")
    w("  }")
    w("  return t;")
    w("}")
    w("inline constexpr std::array<instr_desc, " + arch + "_num_instrs> table = unpack();")
    w("}  // namespace detail::" + arch + "_tab")
    w("")
    w("// The table, sorted by mnemonic; " + arch + "_op indexes it.")
    w("inline constexpr const std::array<instr_desc, " + arch + "_num_instrs>& " + arch + "_instrs = detail::" + arch + "_tab::table;")
    w("inline constexpr const std::array<instr_desc, " + arch + "_num_instrs>& " + arch + "_table = detail::" + arch + "_tab::table;")
    w("")
    w("// Binary search by mnemonic (the table is sorted); the base form for _rtn/_lds variants.")
    w("constexpr const instr_desc* " + arch + "_find(std::string_view name) {")
    w("  return find_sorted(" + arch + "_instrs.data(), " + arch + "_num_instrs, name);")
    w("}")
    w("// Index of the mnemonic in the table (its " + arch + "_op), or -1.")
    w("constexpr int " + arch + "_find_instr(std::string_view name) {")
    w("  const instr_desc* d = " + arch + "_find(name);")
    w("  return d ? static_cast<int>(d - " + arch + "_instrs.data()) : -1;")
    w("}")
    w("constexpr const instr_desc& desc(" + arch + "_op op) { return " + arch + "_instrs[static_cast<uint16_t>(op)]; }")
    w("")
    w("}  // namespace hipasm::isa")
    with open(os.path.join(OUT, arch, "isa.hpp"), "w") as f:
        f.write("\n".join(out) + "\n")


def mnemonic_fn(e):
    return e.name if e.variant != "lds" else e.name + "_lds"


def write_mnemonics(arch, rows, others):
    out = []
    w = out.append
    w("// GENERATED by tools/gen_isa_table.py from llvm-mc-22 (" + arch + "). Do not edit.")
    w("// One member function per " + arch + " mnemonic (xbyak style), mixed into a builder by CRTP:")
    w("//   struct my_builder : hipasm::isa::" + arch + "_mnemonics<my_builder> {")
    w("//     using operand_arg = ...;")
    w("//     constexpr auto emit(" + arch + "_op, std::initializer_list<operand_arg>, const modifiers&,")
    w("//                         std::source_location);")
    w("//   };")
    w("// Each function takes exactly the instruction's operands in llvm-mc order (defs first),")
    w("// then modifiers (designated initialisers: {.offset = 16, .sc0 = true}), then the caller's")
    w("// source location. Global/flat atomics that return the old value are the overloads with")
    w("// one more operand (they set sc0); MUBUF loads into LDS are <name>_lds (they set lds).")
    w("// No " + arch + " mnemonic is a C++ keyword or a standard macro, so every name is spelt as in asm.")
    w("#pragma once")
    w("#include <initializer_list>")
    w("#include <source_location>")
    w("")
    w('#include "../../ir.hpp"')
    w('#include "../../operand.hpp"')
    w('#include "isa.hpp"')
    w("")
    w("namespace hipasm::isa {")
    w("")
    w("template <class Builder>")
    w("struct " + arch + "_mnemonics {")
    w("#define HIPASM_MN_ARGS_ const modifiers& m = no_modifiers, std::source_location loc = std::source_location::current()")
    w("#define HIPASM_MN_EMIT_(op, ...) return static_cast<Builder&>(*this).emit(" + arch + "_op::op, {__VA_ARGS__}, m, loc)")
    w("  // hipasm::operand_arg, not Builder::operand_arg: a nested name of the derived class cannot")
    w("  // be looked up while the base is instantiated (the derived class is still incomplete).")
    w("  using A = ::hipasm::operand_arg;")
    for e, *_ in rows:
        n = e.nops
        params = "".join("A a%d, " % i for i in range(n))
        args = ", ".join("a%d" % i for i in range(n))
        fname = mnemonic_fn(e)
        needs_gds = "gds" in next(iter(e.base.values()))[1]
        if e.variant in ("rtn", "lds") or needs_gds:
            setter = "sc0" if e.variant == "rtn" else "lds" if e.variant == "lds" else "gds"
            w("  constexpr auto %s(%smodifiers m = {}, std::source_location loc = std::source_location::current()) "
              "{ m.%s = true; HIPASM_MN_EMIT_(%s%s); }" % (fname, params, setter, enum_name(e),
                                                           (", " + args) if args else ""))
        else:
            w("  constexpr auto %s(%sHIPASM_MN_ARGS_) { HIPASM_MN_EMIT_(%s%s); }" % (
                fname, params, enum_name(e), (", " + args) if args else ""))
    if others:
        w("  // Instructions of other targets: a call fails the build naming the line and the target.")
    for (fname, n), archs in sorted(others.items()):
        params = "".join("A, " for i in range(n))
        w("  constexpr auto %s(%sconst modifiers& = no_modifiers, std::source_location loc = std::source_location::current()) "
          "{ return static_cast<Builder&>(*this).missing_instr(\"%s\", \"%s\", loc); }" % (fname, params, fname, " or ".join(archs)))
    w("#undef HIPASM_MN_EMIT_")
    w("#undef HIPASM_MN_ARGS_")
    w("};")
    w("")
    w("}  // namespace hipasm::isa")
    with open(os.path.join(OUT, arch, "mnemonics.hpp"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--out":
        OUT = sys.argv[2]
    elif len(sys.argv) != 1:
        sys.exit("usage: gen_isa_table.py [--out DIR]")
    main()
