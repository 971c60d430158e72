// Random structured programs (cf_random_programs.hpp) lowered with the DSL: kernel
// cf_fuzz_<seed> runs program generate(seed); out[g] is what reference() computes for lane g.
#include "cf_lane_io.hpp"
#include "cf_random_programs.hpp"

using namespace hipasm;

namespace {
using namespace cf_fuzz;

// Handles of the kernel's registers (pointers: assigning a handle would emit a move).
struct fuzz_regs {
  const gpr<i32>*v, *acc, *n;
  const gpr<u32>* gid;
  const gpr<u64>* out;
  const gpr<i32>*lane_ctr, *uni_ctr;  // [max_loops]
};
struct fuzz_ctx {
  int loops = 0;
  bool uni[max_loops]{};
  const gpr<i32>* snap = nullptr;  // the enclosing block's latest snapshot (k_save)
};

constexpr void emit_block(builder J, const program* P, int* pos, const fuzz_regs* R, fuzz_ctx c);

// The innermost loop's counter (uniform loops count in an SGPR), or null outside loops.
constexpr const gpr<i32>* inner_counter(const fuzz_regs* R, const fuzz_ctx& c) {
  if (c.loops == 0) return nullptr;
  int d = c.loops - 1;
  return c.uni[d] ? &R->uni_ctr[d] : &R->lane_ctr[d];
}

constexpr cond lane_condition(const fuzz_regs* R, const fuzz_ctx& c, int a, int b) {
  const gpr<i32>* k = inner_counter(R, c);
  if (a == 0) {
    if (!k) return ((*R->v >> (b & 15)) & 1) != 0;
    return ((*R->v >> ((*k + b) & 15)) & 1) != 0;
  }
  if (a == 1) return (*R->acc & 7) == (b & 7);
  if (!k) return (*R->v & 3) == (b & 3);
  return ((*R->v + *k) & 3) == (b & 3);
}
constexpr cond uniform_condition(const fuzz_regs* R, const fuzz_ctx& c, int b) {
  for (int d = c.loops - 1; d >= 0; --d)
    if (c.uni[d]) return ((R->uni_ctr[d] + b) & 3) == 0;
  return *R->n > b;
}

constexpr void emit_block(builder J, const program* P, int* pos, const fuzz_regs* R, fuzz_ctx c) {
  gpr<i32> acc = *R->acc;
  // This block's snapshots: one register each (a copy of acc, its only def), the last ones
  // shared when a block saves more than three times.
  gpr<i32> snaps[3] = {J.vgpr<i32>(), J.vgpr<i32>(), J.vgpr<i32>()};
  int saved = 0;
  while (*pos < P->len && P->n[*pos].k != k_end && P->n[*pos].k != k_else) {
    node x = P->n[*pos];
    ++*pos;
    // (lambdas capture these locals: clang's bytecode interpreter cannot read captured
    // reference parameters)
    builder JJ = J;
    int* pp = pos;
    const program* PP = P;
    const fuzz_regs* RR = R;
    fuzz_ctx cc = c;
    switch (x.k) {
      case k_add: acc = (acc * 3 + x.a) & 0xffff; break;
      case k_add_ctr: acc = acc + *inner_counter(R, c); break;
      case k_save: {
        gpr<i32>& s = snaps[saved < 2 ? saved : 2];
        ++saved;
        s = acc;
        c.snap = &s;
        break;
      }
      case k_mix: acc = (acc + *c.snap * 5) & 0xffff; break;
      case k_break: J.Break(); break;
      case k_continue: J.Continue(); break;
      case k_return: {
        auto r = J.vgpr<i32>();
        r = acc + 100000;
        cf_io::lane_out(J, *R->out, *R->gid, r);
        J.Return();
        break;
      }
      case k_if_lane:
      case k_if_uni: {
        cond cd = x.k == k_if_lane ? lane_condition(R, c, x.a, x.b) : uniform_condition(R, c, x.b);
        auto r = J.If(cd, [&] { emit_block(JJ, PP, pp, RR, cc); });
        if (P->n[*pp].k == k_else) {
          ++*pp;
          r.Else([&] { emit_block(JJ, PP, pp, RR, cc); });
        }
        ++*pp;  // k_end
        break;
      }
      case k_loop_uni:
      case k_loop_lane: {
        int d = c.loops;
        fuzz_ctx in = c;
        in.uni[d] = x.k == k_loop_uni;
        in.loops = d + 1;
        if (x.k == k_loop_uni) {
          J.For(R->uni_ctr[d], 0, static_cast<int>(x.a), [&] { emit_block(JJ, PP, pp, RR, in); });
        } else {
          auto t = J.vgpr<i32>();
          t = (*R->v >> x.a) & 7;
          J.For(R->lane_ctr[d], 0, t, [&] { emit_block(JJ, PP, pp, RR, in); });
        }
        ++*pp;  // k_end
        break;
      }
      default: break;
    }
  }
}

template <uint32_t Seed>
constexpr void fuzz(builder J, arg<int*> out, arg<const int*> in, arg<int> n) {
  program P = generate(Seed);
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  gpr<i32> acc = J.vgpr<i32>().fill(0);
  gpr<i32> nn = n;
  gpr<u64> o = out;
  gpr<i32> lane_ctr[max_loops] = {J.vgpr<i32>(), J.vgpr<i32>(), J.vgpr<i32>()};
  gpr<i32> uni_ctr[max_loops] = {J.sgpr<i32>(), J.sgpr<i32>(), J.sgpr<i32>()};
  gpr<i32> snap0 = J.vgpr<i32>().fill(0);
  fuzz_regs R{&v, &acc, &nn, &gid, &o, lane_ctr, uni_ctr};
  int pos = 0;
  fuzz_ctx top{};
  top.snap = &snap0;
  emit_block(J, &P, &pos, &R, top);
  cf_io::lane_out(J, out, gid, acc);
}
}  // namespace

#define CF_FUZZ_KERNEL(S)                                                                 \
  extern "C" __attribute__((global)) void cf_fuzz_##S(int* out, const int* in, int n) { \
    HIPASM_KERNEL_BODY(fuzz<S>, out, in, n);                                              \
  }
CF_FUZZ_KERNEL(0)
CF_FUZZ_KERNEL(1)
CF_FUZZ_KERNEL(2)
CF_FUZZ_KERNEL(3)
CF_FUZZ_KERNEL(4)
CF_FUZZ_KERNEL(5)
CF_FUZZ_KERNEL(6)
CF_FUZZ_KERNEL(7)
CF_FUZZ_KERNEL(8)
CF_FUZZ_KERNEL(9)
CF_FUZZ_KERNEL(10)
CF_FUZZ_KERNEL(11)
CF_FUZZ_KERNEL(12)
CF_FUZZ_KERNEL(13)
CF_FUZZ_KERNEL(14)
CF_FUZZ_KERNEL(15)
CF_FUZZ_KERNEL(16)
CF_FUZZ_KERNEL(17)
CF_FUZZ_KERNEL(18)
CF_FUZZ_KERNEL(19)
CF_FUZZ_KERNEL(20)
CF_FUZZ_KERNEL(21)
CF_FUZZ_KERNEL(22)
CF_FUZZ_KERNEL(23)
CF_FUZZ_KERNEL(24)
CF_FUZZ_KERNEL(25)
CF_FUZZ_KERNEL(26)
CF_FUZZ_KERNEL(27)
CF_FUZZ_KERNEL(28)
CF_FUZZ_KERNEL(29)
CF_FUZZ_KERNEL(30)
CF_FUZZ_KERNEL(31)
