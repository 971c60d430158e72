// The compile-time pipeline, as one readable list of named steps (asmjit-style). Each
// step is a function over the pipeline state; the first error stops the list.
//
//   remove-unreachable  blocks no path reaches
//   a2v                 AGPR sources copied for instructions that cannot read AGPRs
//   split-registers     arrays broken into the pieces really used
//   known-bits          masks skip terms whose masked bits are known zero, x - ((x >> k) << k)
//                       as x & (2^k - 1) (passes/known_bits.hpp)
//   cse                 identical computations merged (EXEC-aware, block-local)
//   dse                 register writes overwritten before any read
//   dce                 results nobody reads, loads included, found without liveness (unread
//                       values: most of what dce removes)
//   waitcnt-check       computed waits (wait_for, automatic, kernel arguments), then reads of
//                       memory results before a sufficient s_waitcnt
//   dce-liveness        results CFG liveness finds dead (no memory instruction: the waits are
//                       computed); its liveness, carried over its removals, goes to regalloc
//   undefined-reads     a read that no write reaches on some path is an error
//                       (passes/undefined_reads.hpp)
//   schedule            independent instructions moved into hazard gaps and before waits,
//                       on virtual registers (kernel_options::schedule_virtual)
//   regalloc            CFG liveness + linear scan per class, no spilling
//   hazards             s_nop insertion, independent instructions first where they fit
//                       (kernel_options::schedule; last: nothing moves after it)
#pragma once
#include <string_view>

#include "emit.hpp"
#include "options.hpp"
#include "hazard_rules.hpp"
#include "ir.hpp"
#include "vec.hpp"
#include "targets/select.hpp"
#include "target.hpp"
#include "passes/a2v.hpp"
#include "passes/common.hpp"
#include "passes/cse.hpp"
#include "passes/known_bits.hpp"
#include "passes/dce.hpp"
#include "passes/dse.hpp"
#include "passes/hazards.hpp"
#include "passes/liveness.hpp"
#include "passes/regalloc.hpp"
#include "passes/remove_unreachable.hpp"
#include "passes/split_registers.hpp"
#include "passes/undefined_reads.hpp"
#include "passes/vcc_compares.hpp"
#include "passes/waitcnt_check.hpp"
#include "passes/waitcnt_resolve.hpp"

namespace hipasm {

// A target's occupancy facts (target.hpp), for builder::require_waves_per_simd.
struct occupancy_facts {
  uint16_t unified_vgprs_per_lane = 512;
  uint16_t sgprs_per_simd = 800;
  uint8_t vgpr_granule = 8, sgpr_granule = 16, extra_sgprs = 6, max_waves = 8;
};

struct pipeline_options {
  register_limits limits{};
  occupancy_facts occupancy{};
  bool optimize = true;  // cse, dse, dce (all three; kernel's switches them one by one)
  kernel_options kernel{};  // the kernel's own options (options.hpp)
  // Keep the copies coalescing made `x = x` (tests: verify_allocation then sees every def,
  // also of a copy that shares its source's register).
  bool keep_coalesced_copies = false;
};

struct pipeline_state {
  function fn;
  isa_view isa{};
  const hazard_table* hazards = nullptr;
  pipeline_options options{};
  pass_error error{};
  register_usage usage{};
  vec<liveness_info> liveness{};  // dce's, when it removed nothing (reused by regalloc)
  vec<detail::access_table> accesses{};  // dse's, when it removed nothing (reused by dce)
  // dce's after its removals (reused by regalloc's liveness; dropped by a step that changes
  // the function in between)
  vec<detail::access_table> accesses_after_dce{};
  uint32_t filled = 0;  // instructions the hazard pass issued early (kernel_options::schedule)
};

namespace detail {
constexpr bool step_remove_unreachable(pipeline_state& s) {
  remove_unreachable_blocks(s.fn);
  remove_branches_to_next(s.fn, s.isa.find(lit("s_branch")));
  return true;
}
constexpr bool step_a2v(pipeline_state& s) { return agpr_to_vgpr(s.fn, s.isa, s.error); }
constexpr bool step_known_bits(pipeline_state& s) {
  if (s.options.optimize && s.options.kernel.known_bits) simplify_known_bits(s.fn, s.isa);
  return true;
}
constexpr bool step_cse(pipeline_state& s) {
  if (s.options.optimize && s.options.kernel.cse) eliminate_common_subexpressions(s.fn, s.isa);
  return true;
}
constexpr bool step_vcc_compares(pipeline_state& s) {
  if (s.options.optimize && s.options.kernel.vcc_compares) compares_into_vcc(s.fn, s.isa);
  return true;
}
constexpr bool step_dse(pipeline_state& s) {
  s.accesses.clear();
  if (s.options.optimize && s.options.kernel.dse) eliminate_dead_stores(s.fn, s.isa, &s.accesses);
  return true;
}
// dce in two steps around the computed waits: unread values and loads first (their waits
// count the loads that are left), the liveness after the waits (computed once, on the final
// instructions, and handed to regalloc).
constexpr bool step_dce(pipeline_state& s) {
  s.liveness.clear();
  s.accesses_after_dce.clear();
  if (s.options.optimize && s.options.kernel.dce)
    eliminate_dead_code(s.fn, s.isa, nullptr, s.accesses.empty() ? nullptr : &s.accesses.back(), &s.accesses_after_dce,
                        dce_phases::unread_only);
  s.accesses.clear();
  return true;
}
// (No access table is handed on: the liveness it hands to regalloc holds one, and a step that
// drops that liveness drops any table with it.)
constexpr bool step_dce_liveness(pipeline_state& s) {
  s.liveness.clear();
  if (s.options.optimize && s.options.kernel.dce) {
    eliminate_dead_code(s.fn, s.isa, &s.liveness, s.accesses_after_dce.empty() ? nullptr : &s.accesses_after_dce.back(),
                        nullptr, dce_phases::liveness_only);
    s.accesses_after_dce.clear();  // (moved from)
  }
  return true;
}
// (dce's liveness holds the access table of the function as it is now, when dce ran)
constexpr bool step_undefined_reads(pipeline_state& s) {
  if (!s.liveness.empty()) return check_undefined_reads(s.fn, s.isa, s.error, &s.liveness.back().acc, &s.liveness.back().dm);
  return check_undefined_reads(s.fn, s.isa, s.error);
}
constexpr bool step_split(pipeline_state& s) {
  s.liveness.clear();
  return split_registers(s.fn, s.error);
}
constexpr bool step_waitcnt(pipeline_state& s) {
  // Computed waits first (wait_for, automatic, kernel arguments), then the check of all.
  // (The kernel-argument wait is placed by the builder: kernel_args.hpp, builder::finish.)
  bool rewrote = false;
  if (!resolve_waitcnts(s.fn, s.isa, s.options.kernel.auto_waitcnt, false, s.error, &rewrote)) return false;
  if (rewrote) {  // (dce's liveness and table number the instructions as they were)
    s.liveness.clear();
    s.accesses_after_dce.clear();
  }
  return check_waitcnts(s.fn, s.isa, s.error);
}
// The register limits that keep `waves` waves a SIMD (builder::require_waves_per_simd):
// VGPRs and AGPRs each within the unified budget (their sum is checked after allocation),
// SGPRs within the SIMD's share less the extra ones.
constexpr register_limits limits_for_waves(register_limits lim, const occupancy_facts& o, uint8_t waves, src_loc at) {
  const uint32_t vg = o.vgpr_granule, sg = o.sgpr_granule;
  const uint32_t budget = o.unified_vgprs_per_lane / waves / vg * vg;
  const uint32_t sgprs = o.sgprs_per_simd / waves / sg * sg - o.extra_sgprs;
  if (budget < lim.vgprs) lim.vgprs = static_cast<uint16_t>(budget);
  if (budget < lim.agprs) lim.agprs = static_cast<uint16_t>(budget);
  if (sgprs < lim.sgprs) lim.sgprs = static_cast<uint16_t>(sgprs);
  lim.waves_per_simd = waves;
  lim.budget = static_cast<uint16_t>(budget);
  lim.budget_loc = at;
  return lim;
}
// VGPRs + AGPRs a lane as the hardware allocates them: the AGPRs start at accum_offset (the
// VGPRs rounded up to 4), the total rounds up to the granule.
constexpr uint32_t unified_registers(const register_usage& u, uint32_t granule) {
  const uint32_t v = static_cast<uint32_t>(u.count(reg_class::vgpr)), a = static_cast<uint32_t>(u.count(reg_class::agpr));
  const uint32_t total = a ? (v + 3) / 4 * 4 + a : v;
  return (total + granule - 1) / granule * granule;
}
constexpr bool step_regalloc(pipeline_state& s) {
  if (s.liveness.empty())
    s.liveness.push_back(
        compute_liveness(s.fn, s.isa, s.accesses_after_dce.empty() ? nullptr : &s.accesses_after_dce.back()));
  s.accesses_after_dce.clear();
  register_limits lim = s.options.limits;
  const uint8_t waves = s.fn.min_waves_per_simd;
  if (waves > s.options.occupancy.max_waves) {
    if (s.error.begin(s.fn.min_waves_loc))
      s.error.add("kernel '").add(s.fn.name).add("': require_waves_per_simd(").add(static_cast<long long>(waves))
          .add("): a SIMD holds at most ").add(static_cast<long long>(s.options.occupancy.max_waves)).add(" waves");
    return false;
  }
  if (waves) lim = limits_for_waves(lim, s.options.occupancy, waves, s.fn.min_waves_loc);
  const isa_view* coalesce = s.options.kernel.coalesce ? &s.isa : nullptr;
  bool ok = allocate_registers(s.fn, s.liveness.back(), s.error, lim, coalesce);
  if (ok && waves) {
    // VGPRs and AGPRs share the budget: with the AGPRs placed, allocate the VGPRs again in
    // what they leave, so that running out names the live VGPRs.
    const register_usage u = compute_register_usage(s.fn);
    const uint32_t a = static_cast<uint32_t>(u.count(reg_class::agpr));
    if (unified_registers(u, s.options.occupancy.vgpr_granule) > lim.budget) {
      lim.vgprs = static_cast<uint16_t>(a < lim.budget ? (lim.budget - a) / 4 * 4 : 0);
      ok = allocate_registers(s.fn, s.liveness.back(), s.error, lim, coalesce);
      const register_usage u2 = compute_register_usage(s.fn);
      if (ok && unified_registers(u2, s.options.occupancy.vgpr_granule) > lim.budget) {
        if (s.error.begin(s.fn.min_waves_loc))
          s.error.add("kernel '").add(s.fn.name).add("': ").add(static_cast<long long>(u2.count(reg_class::vgpr)))
              .add(" VGPRs + ").add(static_cast<long long>(u2.count(reg_class::agpr)))
              .add(" AGPRs a lane are over the budget of ").add(static_cast<long long>(lim.budget))
              .add(" for ").add(static_cast<long long>(waves)).add(" waves a SIMD");
        ok = false;
      }
    }
  }
  s.liveness.clear();
  if (!ok) return false;
  if (s.options.kernel.coalesce && !s.options.keep_coalesced_copies) remove_identity_copies(s.fn, s.isa);
  s.usage = compute_register_usage(s.fn);
  return true;
}
constexpr bool step_schedule(pipeline_state& s) {
  if (!s.options.kernel.schedule || !s.options.kernel.schedule_virtual) return true;
  // (sched_barrier markers stay until the hazard step: fill_context treats them as barriers)
  s.filled = schedule_fill(s.fn, s.isa, *s.hazards, nullptr);
  if (s.filled) {  // (dce's liveness and table describe the order before)
    s.liveness.clear();
    s.accesses_after_dce.clear();
  }
  return true;
}
constexpr bool step_hazards(pipeline_state& s) {
  vec<vec<uint8_t>> fences;
  if (s.fn.has_sched_barriers) strip_sched_barriers(s.fn, s.isa, fences);
  s.filled += insert_hazard_nops(s.fn, s.isa, *s.hazards, s.options.kernel.schedule,
                                 s.fn.has_sched_barriers ? &fences : nullptr);
  s.fn.has_sched_barriers = false;
  return true;
}
}  // namespace detail

struct pipeline_step {
  std::string_view name;
  bool (*run)(pipeline_state&);
};

inline constexpr pipeline_step pipeline_steps[] = {
    {"remove-unreachable", detail::step_remove_unreachable},
    {"a2v", detail::step_a2v},
    {"split-registers", detail::step_split},
    {"known-bits", detail::step_known_bits},
    {"cse", detail::step_cse},
    {"vcc-compares", detail::step_vcc_compares},
    {"dse", detail::step_dse},
    {"dce", detail::step_dce},
    {"waitcnt-check", detail::step_waitcnt},
    {"dce-liveness", detail::step_dce_liveness},
    {"undefined-reads", detail::step_undefined_reads},
    {"schedule", detail::step_schedule},
    {"regalloc", detail::step_regalloc},
    {"hazards", detail::step_hazards},
};

// Runs one step on `st` (in place); false on an error (in st.error).
constexpr bool run_step(pipeline_state& st, const pipeline_step& step) {
  // dse's access table describes the function only until another step changes it.
  if (step.run != detail::step_dce) st.accesses.clear();
  if (!step.run(st)) {
    if (!st.error.failed) {
      st.error.begin(src_loc{});
      st.error.add("kernel '").add(st.fn.name).add("': pipeline step '").add(step.name).add("' failed");
    }
    return false;
  }
  return true;
}

// Whether the kernel's options turn a step off (it then does nothing).
constexpr bool step_disabled(const pipeline_state& st, const pipeline_step& step) {
  const kernel_options& k = st.options.kernel;
  if (step.run == detail::step_known_bits) return !st.options.optimize || !k.known_bits;
  if (step.run == detail::step_cse) return !st.options.optimize || !k.cse;
  if (step.run == detail::step_vcc_compares) return !st.options.optimize || !k.vcc_compares;
  if (step.run == detail::step_dse) return !st.options.optimize || !k.dse;
  if (step.run == detail::step_dce || step.run == detail::step_dce_liveness) return !st.options.optimize || !k.dce;
  return false;
}

// Runs every step on `st` (in place); false on the first error (in st.error).
constexpr bool run_pipeline(pipeline_state& st) {
  for (const pipeline_step& step : pipeline_steps)
    if (!run_step(st, step)) return false;
  return true;
}

constexpr occupancy_facts occupancy_of(const target& t) {
  return {t.unified_vgprs_per_lane, t.sgprs_per_simd, t.vgpr_alloc_granule, t.sgpr_alloc_granule, t.extra_sgprs,
          t.max_waves_per_simd};
}
constexpr isa_view isa_of(const target& t) { return isa_view{t.instrs, static_cast<uint32_t>(t.num_instrs), t.semantics}; }
constexpr isa_view target_isa() { return isa_of(active_target::desc); }

// Runs the pipeline for a target: its table, hazard data and register limits.
constexpr pipeline_state compile_function(function fn, const target& t = active_target::desc, pipeline_options opt = {}) {
  opt.limits = register_limits{t.regs.sgprs, t.regs.vgprs, t.regs.agprs};
  opt.occupancy = occupancy_of(t);
  pipeline_state st{std::move(fn), isa_of(t), t.hazard_rules ? t.hazard_rules : active_target::desc.hazard_rules, opt};
  run_pipeline(st);
  return st;
}

}  // namespace hipasm
