// Random structured programs for the control-flow fuzz test (test_control_flow_fuzz_sim.cpp):
// nested uniform/per-lane If/Else and uniform/per-lane loops with Break, Continue and Return
// anywhere, per-lane trip counts and conditions that change with the iteration. One
// generator (constexpr, no library; lane_programs.hpp's rng) makes the same program for the
// kernel, which lowers it with the DSL (cf_fuzz.hip), and for the host's reference, which
// runs it per lane (reference() below: a recursive evaluator with C++ loops).
#pragma once
#include <cstdint>

#include "lane_programs.hpp"

namespace cf_fuzz {

enum kind : uint8_t {
  k_end,        // closes an If/Else/loop
  k_else,       // else-branch of the enclosing If
  k_add,        // acc = (acc * 3 + a) & 0xffff
  k_add_ctr,    // acc += innermost loop counter
  k_if_lane,    // per-lane condition a (0..2) with constant b
  k_if_uni,     // uniform condition with constant b
  k_loop_uni,   // for (s = 0; s < a; ++s)
  k_loop_lane,  // for (k = 0; k < ((v >> a) & 7); ++k)
  k_break,
  k_continue,
  k_return,     // out = acc + 100000; return
  k_save,       // snap = acc: a copy of a live value, in a register of the enclosing block
  k_mix,        // acc = (acc + snap * 5) & 0xffff, snap the block's latest (or the outer one's)
};
struct node {
  kind k = k_end;
  uint8_t a = 0, b = 0;
};
constexpr int max_nodes = 96, max_loops = 3;
struct program {
  node n[max_nodes]{};
  int len = 0;
};

struct gen_state {
  lane_programs::rng r;
  program p;
  constexpr uint32_t next(uint32_t mod) { return r.next(mod); }
  constexpr void put(kind k, uint32_t a = 0, uint32_t b = 0) {
    if (p.len < max_nodes) p.n[p.len++] = node{k, static_cast<uint8_t>(a), static_cast<uint8_t>(b)};
  }
  // A block of `stmts` statements at nesting `depth` inside `loops` loops.
  constexpr void block(int depth, int loops, int stmts) {
    for (int i = 0; i < stmts && p.len < max_nodes - 24; ++i) {
      uint32_t r = next(100);
      if (r < 8) {
        put(k_save);
      } else if (r >= 8 && r < 14) {
        put(k_mix);
      } else if (r >= 25 && r < 32 && loops > 0) {
        put(k_add_ctr);
      } else if (r >= 32 && r < 52 && depth < 4) {
        bool lane = next(3) != 0;
        put(lane ? k_if_lane : k_if_uni, next(3), next(16));
        block(depth + 1, loops, 1 + static_cast<int>(next(3)));
        if (next(2)) {
          put(k_else);
          block(depth + 1, loops, 1 + static_cast<int>(next(3)));
        }
        put(k_end);
      } else if (r >= 52 && r < 67 && depth < 4 && loops < max_loops) {
        if (next(2)) put(k_loop_uni, 1 + next(5));
        else put(k_loop_lane, next(12));
        block(depth + 1, loops + 1, 2 + static_cast<int>(next(3)));
        put(k_end);
      } else if (r >= 67 && r < 77 && loops > 0) {
        put(k_break);
      } else if (r >= 77 && r < 87 && loops > 0) {
        put(k_continue);
      } else if (r >= 87 && r < 93 && depth > 0) {  // (at depth 0 it would end every lane)
        put(k_return);
      } else {
        put(k_add, next(50));
      }
    }
  }
};
constexpr program generate(uint32_t seed) {
  gen_state g{lane_programs::rng(seed), {}};
  g.block(0, 0, 4 + static_cast<int>(g.next(4)));
  return g.p;
}

// ---- the reference: one lane at a time --------------------------------------------------------
enum flow { f_normal, f_break, f_continue, f_return };
struct lane_state {
  int32_t v = 0, acc = 0, n = 0;
  int32_t ctr[max_loops]{};   // loop counters by loop depth
  bool uni[max_loops]{};      // loop at that depth is uniform
  int loops = 0;
  int32_t out = 0;
};
// Index after the node that closes the construct opened at `i` (or the block's k_else/k_end).
constexpr int skip_block(const program& p, int i) {
  while (i < p.len && p.n[i].k != k_end && p.n[i].k != k_else) {
    kind k = p.n[i].k;
    ++i;
    if (k == k_if_lane || k == k_if_uni || k == k_loop_uni || k == k_loop_lane) {
      i = skip_block(p, i);
      if (i < p.len && p.n[i].k == k_else) i = skip_block(p, i + 1);
      ++i;  // k_end
    }
  }
  return i;
}
constexpr int32_t inner_counter(const lane_state& s) { return s.loops ? s.ctr[s.loops - 1] : 0; }
constexpr int uniform_counter(const lane_state& s) {
  for (int d = s.loops - 1; d >= 0; --d)
    if (s.uni[d]) return d;
  return -1;
}
constexpr bool lane_cond(const lane_state& s, int a, int b) {
  int32_t c = inner_counter(s);
  if (a == 0) return ((s.v >> ((c + b) & 15)) & 1) != 0;
  if (a == 1) return (s.acc & 7) == (b & 7);
  return ((s.v + c) & 3) == (b & 3);
}
constexpr bool uniform_cond(const lane_state& s, int b) {
  int d = uniform_counter(s);
  if (d >= 0) return ((s.ctr[d] + b) & 3) == 0;
  return s.n > b;
}
// Runs the block starting at i; returns how it ended. snap: the enclosing block's snapshot
// (a k_save here sets this block's own, seen by what follows it here and nested in it).
constexpr flow run_block(const program& p, int i, lane_state& s, int32_t snap = 0) {
  while (i < p.len && p.n[i].k != k_end && p.n[i].k != k_else) {
    const node& x = p.n[i];
    switch (x.k) {
      case k_add: s.acc = (s.acc * 3 + x.a) & 0xffff; ++i; break;
      case k_add_ctr: s.acc += inner_counter(s); ++i; break;
      case k_save: snap = s.acc; ++i; break;
      case k_mix: s.acc = (s.acc + snap * 5) & 0xffff; ++i; break;
      case k_break: return f_break;
      case k_continue: return f_continue;
      case k_return:
        s.out = s.acc + 100000;
        return f_return;
      case k_if_lane:
      case k_if_uni: {
        bool c = x.k == k_if_lane ? lane_cond(s, x.a, x.b) : uniform_cond(s, x.b);
        int then_at = i + 1, else_at = skip_block(p, then_at);
        int end_at = else_at;
        bool has_else = p.n[else_at].k == k_else;
        if (has_else) end_at = skip_block(p, else_at + 1);
        flow f = f_normal;
        if (c) f = run_block(p, then_at, s, snap);
        else if (has_else) f = run_block(p, else_at + 1, s, snap);
        if (f != f_normal) return f;
        i = end_at + 1;
        break;
      }
      case k_loop_uni:
      case k_loop_lane: {
        int body = i + 1, end_at = skip_block(p, body);
        int d = s.loops++;
        s.uni[d] = x.k == k_loop_uni;
        int32_t bound = x.k == k_loop_uni ? x.a : (s.v >> x.a) & 7;
        flow f = f_normal;
        for (s.ctr[d] = 0; s.ctr[d] < bound; ++s.ctr[d]) {
          f = run_block(p, body, s, snap);
          if (f == f_break || f == f_return) break;
        }
        s.loops--;
        if (f == f_return) return f;
        i = end_at + 1;
        break;
      }
      default: ++i; break;
    }
  }
  return f_normal;
}
// out[g] for lane input v: acc + 100000 where it returns, else acc at the end.
constexpr int32_t reference(const program& p, int32_t v, int32_t n) {
  lane_state s;
  s.v = v;
  s.n = n;
  if (run_block(p, 0, s) == f_return) return s.out;
  return s.acc;
}

}  // namespace cf_fuzz
