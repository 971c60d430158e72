// Loop helpers: unrolling by a factor with a remainder, and software pipelining
// (prologue / steady state / epilogue) over rotating buffers.
//
//   // for (i = 0; i < n; ++i) body(i), `factor` copies per loop trip, then the remainder:
//   unroll(J, 10, 4, [&](const gpr<i32>& base, int k) { ... iteration base + k ... });
//   unroll(J, n /* an SGPR or kernel argument */, 4, [&](const gpr<i32>& base, int k) { ... });
//
//   // GEMM main loop with double buffers: load(it, buf) issues iteration it's loads into
//   // buffer buf, compute(it, buf) consumes them; the helper waits for the loads it needs.
//   software_pipeline(J, k_tiles, 2,
//       [&](const gpr<i32>& it, int buf) { ... global_load into a[buf] ... },
//       [&](const gpr<i32>& it, int buf) { ... mfma on a[buf] ... }, {.interleave = true});
//
// Buffer indices are C++ constants: each emitted copy of a body has its own, so rotating
// buffers costs no moves (pick registers/LDS with `buf`: `a[buf]` of an array of handles).
#pragma once
#include <source_location>
#include <type_traits>

#include "../builder.hpp"
#include "interleave.hpp"

namespace hipasm {

// Calls bd(base, k) for iterations 0 .. n-1 (iteration = base + k; base an SGPR, k a
// constant in [0, factor)): a uniform loop of n / factor trips of `factor` copies, then the
// n % factor remaining copies after it (straight-line when there is at most one trip).
template <class F>
constexpr void unroll(builder J, int n, int factor, F&& body, std::source_location l = std::source_location::current()) {
  builder& B = J;
  if (factor < 1 || n < 0) {
    B.fail(to_src_loc(l), "unroll: the factor must be >= 1 and the trip count >= 0");
    return;
  }
  auto& bd = body;  // (a local alias: lambdas must not capture reference parameters)
  auto base = B.sgpr<i32>(l).named("unroll_base");
  base = 0;
  const int trips = n / factor;
  const int f = factor;
  if (trips > 1) {
    auto end = val<i32>(trips * factor, l);
    B.While([&] { return base < end; },
            [&] {
              for (int k = 0; k < f; ++k) bd(base, k);
              base = base + f;
            },
            l);
  } else if (trips == 1) {
    for (int k = 0; k < f; ++k) bd(base, k);
    if (n % factor) base = base + f;
  }
  for (int k = 0; k < n % f; ++k) bd(base, k);
}

// The same with a run-time trip count (a wave-uniform value: SGPR, kernel argument):
// `factor` copies per trip while at least `factor` iterations are left, then one at a time.
template <class F>
constexpr void unroll(builder J, const val<i32>& n, int factor, F&& body,
                      std::source_location l = std::source_location::current()) {
  builder& B = J;
  if (factor < 1) {
    B.fail(to_src_loc(l), "unroll: the factor must be >= 1");
    return;
  }
  if (n.x.is_reg(reg_class::vgpr) || n.x.is_reg(reg_class::agpr)) {
    B.fail(to_src_loc(l), "unroll: a run-time trip count must be wave-uniform (an SGPR or a kernel argument)");
    return;
  }
  auto& bd = body;
  auto base = B.sgpr<i32>(l).named("unroll_base");
  auto last = B.sgpr<i32>(l).named("unroll_last");  // n - factor: a full trip fits while base <= last
  val<i32> cnt = n;
  const int f = factor;
  base = 0;
  if (f > 1) {
    last = gpr<i32>(detail::lower_binary(detail::binop::sub, cnt.x, val<i32>(f, l).x));
    B.While([&] { return base <= last; },
            [&] {
              for (int k = 0; k < f; ++k) bd(base, k);
              base = base + f;
            },
            l);
  }
  B.While([&] { return base < cnt; },
          [&] {
            bd(base, 0);
            base = base + 1;
          },
          l);
}

struct software_pipeline_options {
  bool interleave = false;  // merge each steady-state compute with the next loads (interleave())
  interleave_options costs{};  // the interleaver's unit sharing (interleave.hpp)
  bool wait = true;         // s_waitcnt before each compute for the loads it reads (counted in the
                            // load body: VMEM on vmcnt, LDS/SMEM on lgkmcnt)
  bool overrun = false;     // (run-time trip counts) the load body may run up to depth - 1
                            // iterations past the count: its loads there must be harmless (buffer
                            // loads out of range read zeros and touch no memory). The loop then
                            // leaves at whichever copy finds nothing left to compute, with no
                            // epilogue copies (one copy of the steady state in the code: depth
                            // computes, not depth * depth + 1), and waits for the loads in flight.
};

namespace detail {
struct pipe_counts {
  uint32_t vm = 0, lgkm = 0;
  bool smem = false;
};
constexpr pipe_counts count_async(const instr_stream& s) {
  pipe_counts c;
  for (uint32_t i = 0; i < s.size(); ++i) {
    const isa::instr_desc& d = op_desc(static_cast<target_op>(s.instrs.data()[i].op));
    if (d.flags & isa::f_vm) ++c.vm;
    if (d.flags & isa::f_lgkm) ++c.lgkm;
    if (d.flags & isa::f_smem) c.smem = true;
  }
  return c;
}
// Waits until at most `later` loads' worth of iterations (each `c`) are outstanding.
constexpr void pipe_wait(builder& B, const pipe_counts& c, uint32_t later_iters, src_loc l) {
  waitcnt w{};
  bool any = false;
  if (c.vm) {
    const uint32_t n = c.vm * later_iters;
    w = w | vmcnt(n);
    any = any || n <= waitcnt_encoding::vm_max;
  }
  if (c.lgkm) {
    const uint32_t n = c.smem ? 0 : c.lgkm * later_iters;
    w = w | lgkmcnt(n);
    any = any || n <= waitcnt_encoding::lgkm_max;
  }
  if (any) B.emit_raw(target_op::s_waitcnt, {w.to_operand()}, l);
}
// A steady-state step: the load, the wait (depth - 1 iterations' loads in flight), the compute;
// interleaved: the wait (depth - 2 in flight), then compute and load merged.
template <class Load, class Compute>
constexpr void pipe_step(builder& B, bool il, bool waits, const interleave_options& costs, const pipe_counts& cnt,
                         int depth, src_loc sl, Load&& load, Compute&& compute) {
  if (il) {
    if (waits) pipe_wait(B, cnt, static_cast<uint32_t>(depth - 2), sl);
    instr_stream cs = compute();
    instr_stream ls = load();
    interleave(B, costs, cs, ls);
    return;
  }
  instr_stream ls = load();
  emit_all(B, ls);
  if (waits) pipe_wait(B, cnt, static_cast<uint32_t>(depth - 1), sl);
  instr_stream cs = compute();
  emit_all(B, cs);
}
}  // namespace detail

// Software pipelining over `depth` rotating buffers (depth >= 2), compile-time trip count:
//   prologue: load(0, 0) .. load(depth-2, depth-2)
//   steady:   for i: load(i + depth - 1, (i + depth - 1) % depth); [wait] compute(i, i % depth)
//             (a loop unrolled by depth, so every copy's buffers are constants); the load goes
//             first, into the buffer compute(i - 1) read, so depth - 1 iterations' loads are in
//             flight during the wait (depth 2: double buffering); with interleave the wait comes
//             first (depth - 2 in flight) and interleave() merges compute(i) with the load
//   epilogue: the last depth-1 computes.
// `it` is an SGPR holding the iteration number; buf the buffer index. With opt.wait, before
// compute(i) the helper waits until only the loads of iterations issued after load(i) are
// outstanding (it counts the load body's VMEM and LDS instructions; the body must issue the
// same number every iteration, and load results must not be waited for inside it).
template <class Load, class Compute>
constexpr void software_pipeline(builder J, int trips, int depth, Load&& load, Compute&& compute,
                                 software_pipeline_options opt = {}, std::source_location l = std::source_location::current()) {
  builder& B = J;
  const src_loc sl = to_src_loc(l);
  if (depth < 2 || trips < 0) {
    B.fail(sl, "software_pipeline: depth must be >= 2 and the trip count >= 0");
    return;
  }
  const int D = depth, T = trips;
  auto& ld = load;  // (local aliases: lambdas must not capture reference parameters)
  auto& cp = compute;
  auto li = B.sgpr<i32>(l).named("pipe_load_it");
  auto ci = B.sgpr<i32>(l).named("pipe_compute_it");
  li = 0;
  ci = 0;
  detail::pipe_counts cnt{};
  bool counted = false;
  const bool il = opt.interleave, waits = opt.wait;
  const interleave_options costs = opt.costs;
  // One load step, recorded so that its memory operations can be counted.
  auto load_step = [&](int buf) {
    instr_stream s = record(B, [&] { ld(li, buf); }, l);
    s.loc = sl;
    if (!counted) {
      cnt = detail::count_async(s);
      counted = true;
    }
    return s;
  };
  auto compute_step = [&](int buf) {
    instr_stream s = record(B, [&] { cp(ci, buf); }, l);
    s.loc = sl;
    return s;
  };
  const int pro = T < D - 1 ? T : D - 1;
  for (int s = 0; s < pro; ++s) {
    instr_stream ls = load_step(s % D);
    emit_all(B, ls);
    li = li + 1;
  }
  // Steady state: T - (D - 1) steps; copy k of a trip computes buffer k and loads buffer k-1.
  const int steady = T - (D - 1) > 0 ? T - (D - 1) : 0;
  auto step = [&](int k) {
    detail::pipe_step(B, il, waits, costs, cnt, D, sl, [&] { return load_step((k + D - 1) % D); },
                      [&] { return compute_step(k % D); });
    ci = ci + 1;
    li = li + 1;
  };
  // The wait of the first steady step needs the count: take it from a prologue load (depth >= 2
  // means there is one whenever a steady step exists).
  const int full = steady / D;
  if (full > 1) {
    auto end = val<i32>(full * D, l);
    B.While([&] { return ci < end; }, [&] { for (int k = 0; k < D; ++k) step(k); }, l);
  } else if (full == 1) {
    for (int k = 0; k < D; ++k) step(k);
  }
  for (int k = 0; k < steady % D; ++k) step(k);
  // Epilogue: iterations steady .. T-1, in buffers (steady + j) % D.
  for (int i = steady; i < T; ++i) {
    if (waits && counted) detail::pipe_wait(B, cnt, static_cast<uint32_t>(T - 1 - i), sl);
    instr_stream cs = compute_step(i % D);
    emit_all(B, cs);
    ci = ci + 1;
  }
}

// The same with a run-time trip count (wave-uniform; any value >= 0). With at least depth - 1
// iterations: the prologue, then a steady loop that checks before each copy whether a load is
// left and, if not, runs the epilogue for that copy's buffers and leaves (depth epilogue
// copies in the code, depth - 1 computes each with the compile-time waits of the
// compile-time-count epilogue). With fewer, each iteration loads, waits and computes in turn.
// With opt.overrun, loads past the count instead (see software_pipeline_options).
template <class Load, class Compute>
constexpr void software_pipeline(builder J, const val<i32>& trips, int depth, Load&& load, Compute&& compute,
                                 software_pipeline_options opt = {}, std::source_location l = std::source_location::current()) {
  builder& B = J;
  const src_loc sl = to_src_loc(l);
  if (depth < 2) {
    B.fail(sl, "software_pipeline: depth must be >= 2");
    return;
  }
  if (trips.x.is_reg(reg_class::vgpr) || trips.x.is_reg(reg_class::agpr)) {
    B.fail(sl, "software_pipeline: a run-time trip count must be wave-uniform (an SGPR or a kernel argument)");
    return;
  }
  const int D = depth;
  auto& ld = load;
  auto& cp = compute;
  auto T = B.sgpr<i32>(l).named("pipe_trips");
  T = trips;
  auto li = B.sgpr<i32>(l).named("pipe_load_it");
  auto ci = B.sgpr<i32>(l).named("pipe_compute_it");
  li = 0;
  ci = 0;
  detail::pipe_counts cnt{};
  bool counted = false;
  const bool il = opt.interleave, waits = opt.wait;
  const interleave_options costs = opt.costs;
  auto load_step = [&](int buf) {
    instr_stream s = record(B, [&] { ld(li, buf); }, l);
    s.loc = sl;
    if (!counted) {
      cnt = detail::count_async(s);
      counted = true;
    }
    return s;
  };
  auto compute_step = [&](int buf) {
    instr_stream s = record(B, [&] { cp(ci, buf); }, l);
    s.loc = sl;
    return s;
  };
  // The loop leaves when the next load would be iteration T: the loads of T - (depth - 1) .. T - 1
  // are in flight and exactly those depth - 1 computes are left (no condition), each waiting for
  // its own loads only.
  auto epilogue = [&](int k) {
    for (int j = 0; j < D - 1; ++j) {
      if (waits && counted) detail::pipe_wait(B, cnt, static_cast<uint32_t>(D - 2 - j), sl);
      instr_stream cs = compute_step((k + j) % D);
      emit_all(B, cs);
      ci = ci + 1;
    }
  };
  // The loads of iterations 0 .. depth - 2, unconditional (so the loads outstanding at each
  // point are the same on every path, as the waitcnt check needs).
  auto prologue = [&] {
    for (int s = 0; s < D - 1; ++s) {
      instr_stream ls = load_step(s % D);
      emit_all(B, ls);
      li = li + 1;
    }
  };
  // Copy k of the unrolled loop: computes buffer k, loads buffer k - 1.
  auto steady_step = [&](int k) {
    detail::pipe_step(B, il, waits, costs, cnt, D, sl, [&] { return load_step((k + D - 1) % D); },
                      [&] { return compute_step(k % D); });
    ci = ci + 1;
    li = li + 1;
  };
  if (opt.overrun) {
    // The loads run ahead of the computes by depth - 1 iterations whatever the count (past
    // it they are the body's harmless ones); every copy of the unrolled loop may leave.
    prologue();
    B.While([&] { return ci < T; }, [&] {
      for (int k = 0; k < D; ++k) {
        if (k > 0) B.If(ci >= T, [&] { B.Break(); }, l);
        steady_step(k);
      }
    }, l);
    if (waits && counted) detail::pipe_wait(B, cnt, 0, sl);
    return;
  }
  // At least depth - 1 iterations: the pipelined loop.
  B.If(T >= D - 1, [&] {
    prologue();
    B.While([&] { return ci < T; }, [&] {
      for (int k = 0; k < D; ++k) {
        B.If(li >= T, [&] {
          epilogue(k);
          B.Break();
        }, l);
        steady_step(k);
      }
    }, l);
  }).Else([&] {
    // Fewer (at most depth - 2): each iteration loads into buffer 0, waits and computes.
    for (int s = 0; s + 2 < D; ++s) {
      B.If(ci < T, [&] {
        instr_stream ls = load_step(0);
        emit_all(B, ls);
        if (waits) detail::pipe_wait(B, cnt, 0, sl);
        instr_stream cs = compute_step(0);
        emit_all(B, cs);
      }, l);
      ci = ci + 1;
      li = li + 1;
    }
  }, l);
}

}  // namespace hipasm
