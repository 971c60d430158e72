// A small, independent model of clang-22's gfx942 assembly for the checker-mutation test
// (tests/sim/test_clang_mutations.cpp): parses a kernel's instructions from the .s that
// clang wrote, knows each instruction's register defs/uses, and classifies a mutation
// (an s_nop deleted, an s_waitcnt weakened or deleted) as HARMFUL (the checker must
// report it), HARMLESS (it must not) or UNCERTAIN (depends on paths this straight-line
// model does not follow). The hazard numbers here are written from
// ../shared/reference/gfx942.md on purpose, not shared with the simulator's table.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace refsuite::mut {

// Registers are numbered in one space: SGPR s0..s127 -> 0..127 (vcc = 106/107,
// m0 = 124, exec = 126/127), VGPR vN -> 1000+N, AGPR aN -> 2000+N.
struct reg_range {
  int lo = 0, hi = -1;
  bool empty() const { return hi < lo; }
  bool overlaps(const reg_range& o) const { return !empty() && !o.empty() && lo <= o.hi && o.lo <= hi; }
};
inline bool any_overlap(const std::vector<reg_range>& a, const std::vector<reg_range>& b) {
  for (auto& x : a)
    for (auto& y : b)
      if (x.overlaps(y)) return true;
  return false;
}
constexpr int kVcc = 106, kM0 = 124, kExec = 126;
inline bool is_sgpr(const reg_range& r) { return r.lo < 1000; }
inline bool is_vgpr_or_agpr(const reg_range& r) { return r.lo >= 1000; }

struct instr {
  size_t line = 0;          // index in the file's lines
  std::string mnemonic, text;
  std::vector<std::string> operands;  // operand tokens (modifiers stripped)
  std::string modifiers;              // everything after the operands
  std::vector<reg_range> defs, uses;
  bool label_before = false;          // a branch target label precedes this instruction
};

inline std::optional<reg_range> parse_reg(std::string t) {
  // strip VOP3 modifiers: -v1, |v1|, neg(v1), abs(v1), sext(v1)
  while (!t.empty() && (t[0] == '-' || t[0] == '|')) t.erase(0, 1);
  while (!t.empty() && t.back() == '|') t.pop_back();
  if (auto p = t.find('('); p != std::string::npos && t.back() == ')' && t.rfind("vmcnt", 0) != 0)
    t = t.substr(p + 1, t.size() - p - 2);
  if (t == "vcc") return reg_range{kVcc, kVcc + 1};
  if (t == "vcc_lo") return reg_range{kVcc, kVcc};
  if (t == "vcc_hi") return reg_range{kVcc + 1, kVcc + 1};
  if (t == "exec") return reg_range{kExec, kExec + 1};
  if (t == "exec_lo") return reg_range{kExec, kExec};
  if (t == "exec_hi") return reg_range{kExec + 1, kExec + 1};
  if (t == "m0") return reg_range{kM0, kM0};
  static const std::regex single(R"(^([vsa])(\d+)$)"), range(R"(^([vsa])\[(\d+):(\d+)\]$)");
  std::smatch m;
  auto base = [](char c) { return c == 's' ? 0 : c == 'v' ? 1000 : 2000; };
  if (std::regex_match(t, m, single)) {
    int b = base(m[1].str()[0]) + std::stoi(m[2]);
    return reg_range{b, b};
  }
  if (std::regex_match(t, m, range))
    return reg_range{base(m[1].str()[0]) + std::stoi(m[2]), base(m[1].str()[0]) + std::stoi(m[3])};
  return std::nullopt;
}

inline bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
inline bool has(const std::string& s, const char* p) { return s.find(p) != std::string::npos; }

// Classes used by the hazard rules and the wait model.
inline bool is_mfma(const instr& i) { return starts(i.mnemonic, "v_mfma") || starts(i.mnemonic, "v_smfmac"); }
inline bool is_valu(const instr& i) { return starts(i.mnemonic, "v_") && !is_mfma(i); }
inline bool is_trans(const instr& i) {
  for (const char* p : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
    if (starts(i.mnemonic, p)) return true;
  return false;
}
inline bool is_dpp(const instr& i) { return has(i.mnemonic, "_dpp") || has(i.modifiers, "row_") || has(i.modifiers, "quad_perm"); }
inline bool is_vmem(const instr& i) {
  return starts(i.mnemonic, "global_") || starts(i.mnemonic, "buffer_") || starts(i.mnemonic, "flat_") ||
         starts(i.mnemonic, "scratch_");
}
inline bool is_ds(const instr& i) { return starts(i.mnemonic, "ds_"); }
inline bool is_smem(const instr& i) { return starts(i.mnemonic, "s_load") || starts(i.mnemonic, "s_buffer_load") || starts(i.mnemonic, "s_store"); }
inline bool is_readlane(const instr& i) {
  return starts(i.mnemonic, "v_readlane") || starts(i.mnemonic, "v_readfirstlane") || starts(i.mnemonic, "v_writelane");
}
inline bool is_branch(const instr& i) { return starts(i.mnemonic, "s_branch") || starts(i.mnemonic, "s_cbranch"); }
inline bool returns_data(const instr& i) {  // a memory op that writes its first operand
  if (is_smem(i)) return starts(i.mnemonic, "s_load") || starts(i.mnemonic, "s_buffer_load");
  if (is_ds(i))
    return has(i.mnemonic, "read") || has(i.mnemonic, "_rtn") || has(i.mnemonic, "permute") ||
           has(i.mnemonic, "swizzle") || has(i.mnemonic, "append") || has(i.mnemonic, "consume");
  if (is_vmem(i)) return has(i.mnemonic, "load") || (has(i.mnemonic, "atomic") && (has(i.modifiers, "sc0") || has(i.modifiers, "glc")));
  return false;
}
inline bool is_store(const instr& i) {
  return (is_vmem(i) || is_ds(i) || is_smem(i)) && !returns_data(i) && !has(i.mnemonic, "bpermute");
}

// MFMA passes on gfx940 (gfx942.md) and whether it is an XDL op (not f32/f64 inputs).
inline int mfma_passes(const instr& i) {
  static const std::regex shape(R"(_(\d+)x(\d+)x(\d+))");
  std::smatch m;
  if (!std::regex_search(i.mnemonic, m, shape)) return 16;
  int M = std::stoi(m[1]), K = std::stoi(m[3]);
  bool f32 = has(i.mnemonic, "_f32_") && (has(i.mnemonic, "xf32") || has(i.mnemonic, "f32_4x4") ||
                                          std::regex_search(i.mnemonic, std::regex(R"(x\d+_?f32$)")));
  if (M == 4) return 2;
  if (M == 16) return (K <= 4 && f32) ? 8 : 4;
  if (M == 32) return (K <= 2 || (K == 4 && f32)) ? 16 : 8;
  return 16;
}
inline bool mfma_is_xdl(const instr& i) { return !std::regex_search(i.mnemonic, std::regex(R"(x\d+_?f32$|_f64)")); }

inline instr parse_instr(size_t line, const std::string& raw) {
  instr in;
  in.line = line;
  std::string s = raw.substr(0, raw.find(';'));
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  size_t b = s.find_first_not_of(" \t");
  s = s.substr(b);
  in.text = s;
  size_t sp = s.find_first_of(" \t");
  in.mnemonic = s.substr(0, sp);
  std::string rest = sp == std::string::npos ? "" : s.substr(sp + 1);
  // operands are comma separated; the last one may be followed by space-separated modifiers
  std::vector<std::string> parts;
  std::stringstream ss(rest);
  std::string p;
  while (std::getline(ss, p, ',')) parts.push_back(p);
  for (size_t k = 0; k < parts.size(); ++k) {
    std::string t = parts[k];
    size_t f = t.find_first_not_of(" ");
    if (f == std::string::npos) continue;
    t = t.substr(f);
    if (starts(in.mnemonic, "s_waitcnt") || starts(in.mnemonic, "s_nop")) {
      in.modifiers += t + " ";
      continue;
    }
    size_t e = t.find(' ');
    // "|v1|" and "-v1" have no spaces; modifiers like "offset:16" follow a space
    in.operands.push_back(t.substr(0, e));
    if (e != std::string::npos) in.modifiers += t.substr(e + 1) + " ";
  }
  // defs and uses
  std::vector<reg_range> regs;
  for (auto& o : in.operands) {
    auto r = parse_reg(o);
    regs.push_back(r ? *r : reg_range{});
  }
  const std::string& mn = in.mnemonic;
  int ndefs = 0;
  if (starts(mn, "s_")) {
    static const char* no_dst[] = {"s_cmp", "s_bitcmp", "s_cbranch", "s_branch", "s_waitcnt", "s_nop", "s_barrier",
                                   "s_endpgm", "s_setprio", "s_sleep", "s_sendmsg", "s_trap", "s_setpc", "s_store",
                                   "s_dcache", "s_icache", "s_set_gpr_idx_off", "s_ttrace"};
    bool nd = false;
    for (auto* p2 : no_dst) nd = nd || starts(mn, p2);
    ndefs = nd ? 0 : 1;
    if (has(mn, "saveexec")) in.defs.push_back({kExec, kExec + 1}), in.uses.push_back({kExec, kExec + 1});
    if (starts(mn, "s_cbranch_vcc")) in.uses.push_back({kVcc, kVcc + 1});
    if (starts(mn, "s_cbranch_exec")) in.uses.push_back({kExec, kExec + 1});
  } else if (is_vmem(in) || is_ds(in)) {
    ndefs = returns_data(in) ? 1 : 0;
  } else if (starts(mn, "v_")) {
    ndefs = 1;
    if (has(mn, "_co_") || starts(mn, "v_mad_u64_u32") || starts(mn, "v_mad_i64_i32") || starts(mn, "v_div_scale"))
      ndefs = 2;
    if (starts(mn, "v_cmpx")) in.defs.push_back({kExec, kExec + 1});
    if (starts(mn, "v_div_fmas")) in.uses.push_back({kVcc, kVcc + 1});
    if (!starts(mn, "v_readlane") && !starts(mn, "v_readfirstlane")) in.uses.push_back({kExec, kExec + 1});
  }
  for (size_t k = 0; k < regs.size(); ++k) {
    if (regs[k].empty()) continue;
    if ((int)k < ndefs) in.defs.push_back(regs[k]);
    else in.uses.push_back(regs[k]);
  }
  return in;
}

struct kernel_asm {
  std::string name;
  std::vector<instr> code;
};

// The kernels of a clang -S file: from "<name>:" to ".Lfunc_end".
inline std::vector<kernel_asm> parse_kernels(const std::vector<std::string>& lines) {
  std::vector<kernel_asm> out;
  static const std::regex fn_label(R"(^([A-Za-z_][A-Za-z0-9_]*):)"), bb_label(R"(^\.LBB[0-9_]+:)");
  kernel_asm* cur = nullptr;
  bool pending_label = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    std::smatch m;
    if (std::regex_search(l, m, fn_label) && !starts(l, "__hip_cuid")) {
      out.push_back({m[1], {}});
      cur = &out.back();
      pending_label = false;
      continue;
    }
    if (!cur) continue;
    if (starts(l, ".Lfunc_end")) {
      cur = nullptr;
      continue;
    }
    if (std::regex_search(l, bb_label)) {
      pending_label = true;
      continue;
    }
    if (l.size() > 1 && l[0] == '\t' && l[1] >= 'a' && l[1] <= 'z') {
      instr in = parse_instr(i, l);
      in.label_before = pending_label;
      pending_label = false;
      cur->code.push_back(std::move(in));
    }
  }
  return out;
}

// ---- s_waitcnt -----------------------------------------------------------------------
struct waitcnt {
  int vm = 63, lgkm = 15;  // 63/15 = no wait on that counter
};
inline waitcnt parse_waitcnt(const instr& in) {
  waitcnt w;
  static const std::regex vm(R"(vmcnt\((\d+)\))"), lg(R"(lgkmcnt\((\d+)\))");
  std::smatch m;
  if (std::regex_search(in.modifiers, m, vm)) w.vm = std::stoi(m[1]);
  if (std::regex_search(in.modifiers, m, lg)) w.lgkm = std::stoi(m[1]);
  return w;
}
inline std::string print_waitcnt(const waitcnt& w) {
  std::string s = "s_waitcnt";
  if (w.vm < 63) s += " vmcnt(" + std::to_string(w.vm) + ")";
  if (w.lgkm < 15) s += " lgkmcnt(" + std::to_string(w.lgkm) + ")";
  if (w.vm >= 63 && w.lgkm >= 15) s = "s_nop 0 ; (no counter left)";
  return s;
}

enum class verdict { harmful, harmless, uncertain };
inline const char* name(verdict v) {
  return v == verdict::harmful ? "HARMFUL" : v == verdict::harmless ? "harmless" : "uncertain";
}

struct mutation {
  std::string kernel;
  size_t code_index = 0;       // index into kernel_asm::code
  size_t line = 0;             // line in the .s
  std::string original, replacement;  // replacement "" = line deleted
  std::string kind;            // "delete s_nop", "delete s_waitcnt", "raise vmcnt", ...
  verdict expect = verdict::uncertain;
  std::string why;
  size_t line2 = 0;            // sink mutations swap two lines: line2 gets replacement2
  std::string replacement2;
  // For HARMFUL verdicts: the instruction the checker must name (the first reader/writer of
  // a pending result, or the hazard's consumer) and, for hazards, the producer.
  std::string consumer, producer;
};

// Pending-memory model of one straight-line region (the wait model of gfx942.md):
// vmcnt retires in order; lgkmcnt retires DS ops in order, but SMEM returns out of order
// so with any SMEM op outstanding only lgkmcnt(0) retires anything; flat counts on both.
struct pending_op {
  size_t index;                 // code index of the memory op
  bool vm, lgkm, smem, lds_store;
  std::vector<reg_range> dst;
};
struct pending_state {
  bool unknown_older = false;   // region starts at a branch target: older ops unknown
  std::vector<pending_op> ops;  // in issue order
};
// Which ops does a wait certainly retire, given the state? (indices into st.ops)
inline std::vector<size_t> retired_by(const pending_state& st, const waitcnt& w) {
  std::vector<size_t> vm_ops, lgkm_ops;
  bool lgkm_out_of_order = st.unknown_older;  // unknown older ops might be SMEM
  for (size_t k = 0; k < st.ops.size(); ++k) {
    if (st.ops[k].vm) vm_ops.push_back(k);
    if (st.ops[k].lgkm) {
      lgkm_ops.push_back(k);
      lgkm_out_of_order = lgkm_out_of_order || st.ops[k].smem || st.ops[k].vm /* flat */;
    }
  }
  std::vector<bool> vm_ret(st.ops.size(), false), lgkm_ret(st.ops.size(), false);
  for (size_t k = 0; k + (size_t)w.vm < vm_ops.size(); ++k) vm_ret[vm_ops[k]] = true;  // in order
  if (w.lgkm == 0)
    for (size_t k : lgkm_ops) lgkm_ret[k] = true;
  else if (!lgkm_out_of_order)
    for (size_t k = 0; k + (size_t)w.lgkm < lgkm_ops.size(); ++k) lgkm_ret[lgkm_ops[k]] = true;
  std::vector<size_t> out;
  for (size_t k = 0; k < st.ops.size(); ++k)
    if ((!st.ops[k].vm || vm_ret[k]) && (!st.ops[k].lgkm || lgkm_ret[k])) out.push_back(k);
  return out;
}
inline void apply_wait(pending_state& st, const waitcnt& w) {
  size_t known_vm = 0;
  for (auto& o : st.ops) known_vm += o.vm;
  auto r = retired_by(st, w);
  for (size_t k = r.size(); k-- > 0;) st.ops.erase(st.ops.begin() + (long)r[k]);
  // unknown older ops are all older than the known ones: retired once the vm wait reaches
  // past the known ops and lgkm waits for zero
  if (st.unknown_older && (size_t)w.vm <= known_vm && w.lgkm == 0) st.unknown_older = false;
}
inline pending_op make_op(const instr& in, size_t idx) {
  pending_op o{idx, false, false, false, false, {}};
  bool flat = starts(in.mnemonic, "flat_");
  o.vm = is_vmem(in);
  o.lgkm = is_ds(in) || is_smem(in) || flat;
  o.smem = is_smem(in);
  o.lds_store = is_ds(in) && !returns_data(in);
  if (returns_data(in) && !in.defs.empty()) o.dst = {in.defs[0]};
  return o;
}
inline bool is_memory_op(const instr& in) { return is_vmem(in) || is_ds(in) || is_smem(in); }

// State just before code[p], walking the region that contains p from its start.
inline pending_state state_before(const kernel_asm& k, size_t p, size_t& region_start) {
  size_t s = p;
  while (s > 0 && !k.code[s].label_before && !starts(k.code[s - 1].mnemonic, "s_branch") &&
         !starts(k.code[s - 1].mnemonic, "s_endpgm"))
    --s;
  region_start = s;
  pending_state st;
  st.unknown_older = s != 0;
  for (size_t i = s; i < p; ++i) {
    const instr& in = k.code[i];
    if (starts(in.mnemonic, "s_waitcnt")) apply_wait(st, parse_waitcnt(in));
    else if (is_memory_op(in)) st.ops.push_back(make_op(in, i));
  }
  return st;
}

// Classify weakening code[p] (an s_waitcnt) to `weak` (nullopt = deleted).
inline void classify_waitcnt(const kernel_asm& k, size_t p, std::optional<waitcnt> weak, mutation& mu) {
  size_t rs;
  pending_state st = state_before(k, p, rs);
  waitcnt orig = parse_waitcnt(k.code[p]);
  auto r_orig = retired_by(st, orig);
  std::vector<size_t> r_weak = weak ? retired_by(st, *weak) : std::vector<size_t>{};
  // ops the original wait certainly retires and the weakened one certainly does not
  // guarantee: under the checker's model they are still pending after the mutant.
  std::vector<size_t> unguarded;
  for (size_t x : r_orig)
    if (std::find(r_weak.begin(), r_weak.end(), x) == r_weak.end()) unguarded.push_back(x);
  // the same set expressed as ops in a state we keep walking forward
  pending_state fwd = st;
  if (weak) apply_wait(fwd, *weak);
  else fwd.unknown_older = st.unknown_older;
  std::vector<size_t> watch;  // code indices of unguarded ops
  for (size_t x : unguarded) watch.push_back(st.ops[x].index);
  auto still_pending = [&](size_t code_idx) {
    for (auto& o : fwd.ops)
      if (o.index == code_idx) return true;
    return false;
  };
  for (size_t i = p + 1; i < k.code.size(); ++i) {
    const instr& in = k.code[i];
    if (in.label_before) break;  // a join point: other paths, stop (uncertain below)
    bool any_watched = false;
    for (size_t w : watch) any_watched = any_watched || still_pending(w);
    if (!any_watched) break;
    // a use or overwrite of a register a watched load still has in flight
    for (auto& o : fwd.ops) {
      if (std::find(watch.begin(), watch.end(), o.index) == watch.end() || o.dst.empty()) continue;
      std::vector<reg_range> touched = in.uses;
      touched.insert(touched.end(), in.defs.begin(), in.defs.end());
      if (any_overlap(touched, o.dst)) {
        mu.expect = verdict::harmful;
        mu.why = "the result of '" + k.code[o.index].text + "' is read/overwritten by '" + in.text +
                 "' with no sufficient wait in between";
        mu.consumer = in.text;
        return;
      }
    }
    if (starts(in.mnemonic, "s_barrier")) {
      for (auto& o : fwd.ops)
        if (o.lds_store && std::find(watch.begin(), watch.end(), o.index) != watch.end()) {
          mu.expect = verdict::harmful;
          mu.why = "LDS store '" + k.code[o.index].text + "' is not retired before s_barrier; other waves read those bytes";
          return;
        }
    }
    if (starts(in.mnemonic, "s_waitcnt")) apply_wait(fwd, parse_waitcnt(in));
    else if (is_memory_op(in)) fwd.ops.push_back(make_op(in, i));
    if (starts(in.mnemonic, "s_endpgm")) {
      mu.expect = verdict::harmless;
      mu.why = "the ops it no longer waits for are never read before s_endpgm (results unused or stores)";
      return;
    }
    if (starts(in.mnemonic, "s_branch") || starts(in.mnemonic, "s_cbranch_scc") || starts(in.mnemonic, "s_cbranch_vcc") ||
        starts(in.mnemonic, "s_setpc"))
      break;  // s_cbranch_execz/execnz fall through in every wave with active lanes: keep walking
  }
  bool any_watched = false;
  for (size_t w : watch) any_watched = any_watched || still_pending(w);
  if (!watch.empty() && !any_watched) {
    mu.expect = verdict::harmless;
    mu.why = "a later s_waitcnt in the same straight-line code retires the ops before any use";
    return;
  }
  if (watch.empty() && !st.unknown_older) {
    mu.expect = verdict::harmless;
    mu.why = "the weakened counter still covers every op outstanding at this point";
    return;
  }
  mu.expect = verdict::uncertain;
  mu.why = watch.empty() ? "only ops from other paths (branch target) could be affected"
                         : "a possible use lies beyond a branch or join point";
}

// ---- s_nop: the hazard rules of gfx942.md ------------------------------------------------
struct hazard_hit {
  int required = 0;
  std::string rule;
};
inline int wait_states_of(const instr& in) {
  if (starts(in.mnemonic, "s_nop")) {
    int n = 0;
    try {
      n = std::stoi(in.modifiers.empty() ? "0" : in.modifiers);
    } catch (...) {
    }
    return n + 1;
  }
  return 1;
}
inline std::vector<reg_range> sgpr_defs(const instr& i) {
  std::vector<reg_range> r;
  for (auto& d : i.defs)
    if (is_sgpr(d) && d.lo != kExec) r.push_back(d);
  return r;
}
inline std::vector<reg_range> vgpr_defs(const instr& i) {
  std::vector<reg_range> r;
  for (auto& d : i.defs)
    if (is_vgpr_or_agpr(d)) r.push_back(d);
  return r;
}
inline bool writes_exec(const instr& i) { return any_overlap(i.defs, {{kExec, kExec + 1}}); }
inline bool writes_vcc(const instr& i) { return any_overlap(i.defs, {{kVcc, kVcc + 1}}); }

// Wait states producer P must precede consumer C by (0 = no rule applies).
inline hazard_hit required_wait(const instr& P, const instr& C) {
  hazard_hit h;
  auto need = [&](int n, const char* rule) {
    if (n > h.required) h.required = n, h.rule = rule;
  };
  std::vector<reg_range> c_src_vgpr;
  for (auto& u : C.uses)
    if (is_vgpr_or_agpr(u)) c_src_vgpr.push_back(u);
  if (is_valu(P)) {
    auto sd = sgpr_defs(P);
    if (!sd.empty()) {
      if ((is_vmem(C)) && any_overlap(sd, C.uses)) need(5, "VALU writes SGPR -> VMEM reads it (5)");
      if (is_valu(C) && any_overlap(sd, C.uses)) need(2, "VALU writes SGPR/VCC -> VALU reads it (2)");
      if ((starts(C.mnemonic, "v_readlane") || starts(C.mnemonic, "v_writelane")) && C.uses.size() >= 2 &&
          any_overlap(sd, {C.uses[1]}))
        need(4, "VALU writes SGPR -> v_readlane/v_writelane lane select (4)");
    }
    if (writes_vcc(P) && starts(C.mnemonic, "v_div_fmas")) need(4, "VALU writes VCC -> v_div_fmas (4)");
    auto vd = vgpr_defs(P);
    if (!vd.empty()) {
      if (is_dpp(C) && any_overlap(vd, c_src_vgpr)) need(2, "VALU writes VGPR -> DPP reads it (2)");
      if ((starts(C.mnemonic, "v_readlane") || starts(C.mnemonic, "v_readfirstlane")) && !C.uses.empty() &&
          any_overlap(vd, {C.uses[0]}))
        need(1, "VALU writes VGPR -> v_readlane src0 (1)");
      if (is_mfma(C) && any_overlap(vd, c_src_vgpr)) need(2, "VALU writes VGPR -> MFMA reads it (2)");
      if (is_trans(P) && is_valu(C) && !is_trans(C) && any_overlap(vd, c_src_vgpr))
        need(1, "transcendental -> non-transcendental VALU reads the result (1)");
      if ((has(P.modifiers, "dst_sel:WORD") || has(P.modifiers, "dst_sel:BYTE") || has(P.modifiers, "op_sel:[0,0,1]") ||
           has(P.modifiers, "op_sel:[0,0,0,1]")) && is_valu(C) && any_overlap(vd, c_src_vgpr))
        need(1, "SDWA/op_sel partial dst -> VALU reads the result (1)");
    }
    if (writes_exec(P)) {
      if (is_dpp(C)) need(5, "VALU writes EXEC -> DPP (5)");
      if (is_readlane(C)) need(4, "VALU writes EXEC -> v_readlane/readfirstlane/writelane (4)");
      if (is_mfma(C)) need(4, "VALU writes EXEC -> MFMA (4)");
      if (starts(P.mnemonic, "v_cmpx") && is_valu(C) && any_overlap(C.uses, {{kExec, kExec + 1}}) &&
          (has(C.text, "exec")))
        need(2, "v_cmpx -> VALU reads EXEC explicitly (2)");
    }
  }
  if (is_mfma(P)) {
    int np = mfma_passes(P);
    bool xdl = mfma_is_xdl(P);
    auto d = P.defs;
    std::vector<reg_range> c_touch = C.uses;
    c_touch.insert(c_touch.end(), C.defs.begin(), C.defs.end());
    if ((is_valu(C) || is_vmem(C) || is_ds(C)) && any_overlap(d, c_touch))
      need(xdl ? np + 3 : np + 2, "MFMA result -> VALU/VMEM/DS reads or overwrites it (XDL NP+3)");
    if (is_mfma(C)) {
      // srcA/srcB are uses[0..1], srcC uses[2] (exec was pushed first for VALU; MFMA is not VALU)
      std::vector<reg_range> ab, c;
      for (auto& u : C.uses)
        if (is_vgpr_or_agpr(u)) (ab.size() < 2 ? ab : c).push_back(u);
      if (any_overlap(d, ab)) need(xdl ? np + 3 : np + 2, "MFMA result -> MFMA srcA/B (XDL NP+3)");
      bool same_c = c.size() == 1 && d.size() == 1 && c[0].lo == d[0].lo && c[0].hi == d[0].hi;
      if (!same_c && any_overlap(d, c)) need(xdl ? np + 1 : np, "MFMA result -> MFMA overlapping srcC");
    }
    // WAR: an XDL MFMA reads srcC; a VALU must not overwrite it too early
    if (xdl && is_valu(C)) {
      std::vector<reg_range> srcc;
      int n = 0;
      for (auto& u : P.uses)
        if (is_vgpr_or_agpr(u) && n++ == 2) srcc.push_back(u);
      if (any_overlap(srcc, C.defs)) need(np == 2 ? 1 : np == 4 ? 3 : np == 8 ? 7 : 15, "XDL srcC read -> VALU write (WAR)");
    }
  }
  if ((is_vmem(P)) && is_store(P) && is_valu(C)) {
    // store with more than 64 bits of data: its data VGPRs (the second operand) stay busy
    if (P.uses.size() >= 2) {
      auto dr = P.uses[1];
      if (is_vgpr_or_agpr(dr) && dr.hi - dr.lo + 1 > 2 && any_overlap({dr}, C.defs))
        need(2, "store > 64-bit data -> VALU overwrites its data VGPRs (2)");
    }
  }
  if (starts(P.mnemonic, "s_") && any_overlap(P.defs, {{kM0, kM0}}) &&
      (starts(C.mnemonic, "s_sendmsg") || has(C.mnemonic, "addtid") || starts(C.mnemonic, "s_movrel") ||
       (is_vmem(C) && has(C.modifiers, "lds"))))
    need(1, "SALU writes M0 -> s_sendmsg/LDS DMA/ds_*_addtid (1)");
  return h;
}

// Classify deleting code[q] (an s_nop).
inline void classify_nop(const kernel_asm& k, size_t q, mutation& mu) {
  const int nop_ws = wait_states_of(k.code[q]);
  if (k.code[q].label_before) {
    mu.expect = verdict::uncertain;
    mu.why = "the s_nop starts a block: its producer is on another path";
    return;
  }
  // producers: walk back within straight-line code (no branch target between)
  for (size_t pi = q; pi-- > 0;) {
    const instr& P = k.code[pi];
    if (is_branch(P) || starts(P.mnemonic, "s_endpgm")) break;
    // elapsed wait states from P to the nop (exclusive)
    int before = 0;
    for (size_t t = pi + 1; t < q; ++t) before += wait_states_of(k.code[t]);
    if (before > 24) break;
    int after = 0;
    for (size_t ci = q + 1; ci < k.code.size(); ++ci) {
      const instr& C = k.code[ci];
      if (C.label_before) break;
      hazard_hit h = required_wait(P, C);
      int elapsed_mutant = before + after;
      if (h.required > 0 && elapsed_mutant < h.required && before + after + nop_ws >= h.required) {
        mu.expect = verdict::harmful;
        mu.why = h.rule + ": '" + P.text + "' -> '" + C.text + "' has " + std::to_string(elapsed_mutant) +
                 " wait states without the s_nop, needs " + std::to_string(h.required);
        mu.consumer = C.text;
        mu.producer = P.text;
        return;
      }
      after += wait_states_of(C);
      if (is_branch(C) || starts(C.mnemonic, "s_endpgm") || before + after > 24) break;
    }
    if (k.code[pi].label_before) break;
  }
  mu.expect = verdict::uncertain;
  mu.why = "no producer/consumer pair in this straight-line code needs it under our table (cross-block or a "
           "conservative clang wait)";
}

// Sinking code[p] (an s_waitcnt) below the next instruction, a VALU/SALU op that is not a
// branch, barrier, memory op, wait or nop. Returns false when the swap would shorten a hazard
// window (the wait was serving as a wait state): such a swap is not generated.
inline bool sink_is_candidate(const kernel_asm& k, size_t p) {
  if (p + 1 >= k.code.size()) return false;
  const instr& nx = k.code[p + 1];
  if (nx.label_before || is_branch(nx) || is_memory_op(nx) || starts(nx.mnemonic, "s_waitcnt") ||
      starts(nx.mnemonic, "s_nop") || starts(nx.mnemonic, "s_barrier") || starts(nx.mnemonic, "s_endpgm") ||
      starts(nx.mnemonic, "s_sendmsg") || starts(nx.mnemonic, "s_setpc") || is_mfma(nx))
    return false;
  int elapsed = 0;  // wait states between producer and the moved instruction, after the swap
  for (size_t pi = p; pi-- > 0;) {
    const instr& P = k.code[pi];
    if (is_branch(P) || starts(P.mnemonic, "s_endpgm")) break;
    if (required_wait(P, nx).required > elapsed) return false;
    elapsed += wait_states_of(P);
    if (elapsed > 24 || P.label_before) break;
  }
  return true;
}
inline void classify_sink(const kernel_asm& k, size_t p, mutation& mu) {
  size_t rs;
  pending_state st = state_before(k, p, rs);
  const instr& nx = k.code[p + 1];
  std::vector<reg_range> touched = nx.uses;
  touched.insert(touched.end(), nx.defs.begin(), nx.defs.end());
  for (size_t x : retired_by(st, parse_waitcnt(k.code[p]))) {
    const pending_op& o = st.ops[x];
    if (!o.dst.empty() && any_overlap(touched, o.dst)) {
      mu.expect = verdict::harmful;
      mu.why = "'" + nx.text + "' now runs before the wait for '" + k.code[o.index].text + "' and touches its result";
      mu.consumer = nx.text;
      return;
    }
  }
  if (st.unknown_older) {
    mu.expect = verdict::uncertain;
    mu.why = "the region starts at a branch target: ops from the other path might be touched";
    return;
  }
  mu.expect = verdict::harmless;
  mu.why = "'" + nx.text + "' touches no register of an op the wait retires, and no hazard window involves it";
}

// Hoisting code[p] (an s_waitcnt) above the previous instruction (a VALU/SALU op, no memory
// op, branch, wait, nop or barrier; same straight-line code). Waiting earlier retires at
// least as much at every later point, so it is HARMLESS for memory; the swap is generated
// only when the wait was not serving as a wait state between that instruction and a later
// consumer (hazard windows unchanged). The checker must stay silent: false-positive probes.
inline bool hoist_is_candidate(const kernel_asm& k, size_t p) {
  if (p == 0 || k.code[p].label_before) return false;
  const instr& pv = k.code[p - 1];
  if (is_branch(pv) || is_memory_op(pv) || starts(pv.mnemonic, "s_waitcnt") || starts(pv.mnemonic, "s_nop") ||
      starts(pv.mnemonic, "s_barrier") || starts(pv.mnemonic, "s_sendmsg") || is_mfma(pv))
    return false;
  int between = 0;  // wait states between pv and the consumer after the hoist (W no longer between)
  for (size_t ci = p + 1; ci < k.code.size(); ++ci) {
    const instr& C = k.code[ci];
    if (C.label_before) break;
    if (required_wait(pv, C).required > between) return false;
    between += wait_states_of(C);
    if (between > 24 || is_branch(C) || starts(C.mnemonic, "s_endpgm")) break;
  }
  return true;
}

}  // namespace refsuite::mut
