// Clang is the oracle for the checker (issue "hipasm-sim", Proof): the reference suite's
// clang-22 -S output is clean, so the checker must report nothing on it; deleting an s_nop
// clang emitted, or weakening one of its s_waitcnt (a counter raised by one, or the whole
// wait deleted), re-assembled with clang++-22, must be reported whenever the mutation makes a
// wait insufficient.
//
// Which mutations are harmful is decided here, independently of the simulator, by
// mutations/asm_model.hpp over the straight-line code around the mutation:
//  - s_waitcnt: the ops the original wait retired and the weakened one does not (vmcnt in
//    order; lgkmcnt in order for LDS only, SMEM out of order so only lgkmcnt(0) counts).
//    HARMFUL if one of them has its destination registers read or overwritten, or is an LDS
//    store that reaches s_barrier, before a later wait retires it. HARMLESS if the weakened
//    counter still covers every op outstanding there (kernel entry region, nothing unknown),
//    if a later wait in the same straight-line code retires them before any use, or if
//    s_endpgm comes first (unused load results, stores). UNCERTAIN otherwise: the region starts
//    at a branch target (ops from the other path unknown) or the use lies past a branch.
//  - sinking an s_waitcnt below the next (non-memory) instruction: HARMFUL if that instruction
//    touches a result the wait guards, HARMLESS if not (and no hazard window changes).
//  - hoisting an s_waitcnt above the previous (non-memory) instruction: always HARMLESS (it
//    waits earlier; generated only where no hazard window changes): false-positive probes.
//  - s_nop: HARMFUL if a producer/consumer pair of gfx942.md's hazard table around it (same
//    straight-line code) is left with fewer wait states than the rule needs; UNCERTAIN when
//    no rule explains it (a cross-block hazard, or a conservative clang choice).
// The model follows s_cbranch_execz/execnz fall-through (taken only when no lane is on that
// path), so each launch recipe below makes every such path active in some wave (ref_int64
// mixes 32-bit and 64-bit operands so both of clang's division paths run).
// The test REQUIREs every HARMFUL mutant reported by a diagnostic that names the instruction
// at fault (and the hazard's producer), every HARMLESS one not reported, at least
// a minimum number of HARMFUL ones (so it cannot pass vacuously), and prints the table.
#include "kernels/ref_host.hpp"
#include "mutations/asm_model.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <unistd.h>

using namespace refsuite;
using namespace refsuite::mut;

namespace {

// ---- launch recipes: inputs for every kernel of the suite ------------------------------
struct arena {
  device& dev;
  std::vector<std::shared_ptr<void>> keep;
  std::mt19937 rng{1234};
  template <class T>
  uint64_t buf(std::vector<T> init) {
    auto b = std::make_shared<buffer<T>>(dev, init);
    keep.push_back(b);
    return b->addr();
  }
  template <class T>
  uint64_t zeros(size_t n) { return buf(std::vector<T>(n, T{})); }
  std::vector<int32_t> ints(size_t n, bool nonzero = false) {
    std::vector<int32_t> v(n);
    for (auto& x : v) {
      x = (int32_t)rng();
      if (nonzero && x == 0) x = 3;
    }
    return v;
  }
  std::vector<float> floats(size_t n, float lo, float hi) {
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = u(rng);
    return v;
  }
  std::vector<uint16_t> bf16s(size_t n) {
    std::vector<uint16_t> v(n);
    for (auto& x : v) x = float_to_bf16((float)((int)(rng() % 5) - 2));
    return v;
  }
};
struct recipe {
  std::string group, kernel;
  dim3 grid, block;
  std::function<kernel_args(arena&)> args;
};

std::vector<recipe> recipes() {
  std::vector<recipe> r;
  auto add = [&](std::string g, std::string k, dim3 grid, dim3 block, std::function<kernel_args(arena&)> f) {
    r.push_back({std::move(g), std::move(k), grid, block, std::move(f)});
  };
  const uint32_t n = 200;
  add("arith", "ref_int_arith", {4}, {64}, [=](arena& a) {
    return kernel_args().add(a.buf(a.ints(n))).add(a.buf(a.ints(n))).add(a.zeros<int32_t>(n * 16)).add(-7).add(n);
  });
  add("arith", "ref_float_arith", {4}, {64}, [=](arena& a) {
    return kernel_args().add(a.buf(a.floats(n, -10, 10))).add(a.buf(a.floats(n + 3, -10, 10))).add(a.zeros<float>(n * 12))
        .add(a.zeros<double>(n * 4)).add(1.5f).add((int64_t)3).add(0.25).add(n);
  });
  add("arith", "ref_grid2d", {2, 3}, {16, 4}, [](arena& a) {
    return kernel_args().add(a.zeros<int32_t>(20 * 10)).add(20u).add(10u).add(5);
  });
  add("arith", "ref_div_runtime", {4}, {64}, [=](arena& a) {
    return kernel_args().add(a.buf(a.ints(n))).add(a.buf(a.ints(n, true))).add(a.zeros<int32_t>(n * 8)).add(-1234567).add(89).add(n);
  });
  add("arith", "ref_div_const", {4}, {64}, [=](arena& a) {
    return kernel_args().add(a.buf(a.ints(n))).add(a.zeros<int32_t>(n * 12)).add(n);
  });
  add("arith", "ref_int64", {4}, {64}, [=](arena& a) {
    std::vector<int64_t> x(n), y(n);
    // odd lanes: 64-bit operands (full 64-bit division path); even lanes: operands below
    // 2^32 (clang's 32-bit fast path): every block of the kernel runs.
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = (i & 1) ? ((int64_t)a.rng() << 20 | a.rng()) : (int64_t)a.rng();
      y[i] = (i & 1) ? (int64_t)(a.rng() | 1) << 7 : (int64_t)(a.rng() | 1);
    }
    return kernel_args().add(a.buf(x)).add(a.buf(y)).add(a.zeros<int64_t>(n * 12)).add((int64_t)-12345).add(n);
  });
  add("arith", "ref_subdword", {3}, {64}, [](arena& a) {
    const uint32_t m = 150;
    std::vector<int8_t> sc(m);
    std::vector<uint8_t> uc(m);
    std::vector<int16_t> ss(m);
    std::vector<uint16_t> us(m);
    for (uint32_t i = 0; i < m; ++i) sc[i] = (int8_t)a.rng(), uc[i] = (uint8_t)a.rng(), ss[i] = (int16_t)a.rng(), us[i] = (uint16_t)a.rng();
    return kernel_args().add(a.buf(sc)).add(a.buf(uc)).add(a.buf(ss)).add(a.buf(us)).add(a.zeros<int32_t>(m * 4))
        .add(a.zeros<int8_t>(m)).add(a.zeros<int16_t>(m)).add(a.zeros<uint8_t>(m)).add(m);
  });
  add("arith", "ref_lds_subdword", {2}, {256}, [](arena& a) {
    return kernel_args().add(a.buf(a.ints(512))).add(a.zeros<int32_t>(512));
  });
  add("arith", "ref_convert", {4}, {64}, [=](arena& a) {
    std::vector<double> d(n);
    std::vector<uint16_t> h(n);
    for (uint32_t i = 0; i < n; ++i) d[i] = (double)(int32_t)a.rng() / 7.0, h[i] = (uint16_t)a.rng();
    return kernel_args().add(a.buf(a.floats(n, -3e4f, 3e4f))).add(a.buf(a.ints(n))).add(a.buf(d)).add(a.buf(h)).add(a.buf(h))
        .add(a.zeros<int32_t>(n * 6)).add(a.zeros<float>(n * 8)).add(a.zeros<double>(n * 3)).add(a.zeros<uint16_t>(n * 4)).add(n);
  });
  add("arith", "ref_transcendental", {4}, {64}, [=](arena& a) {
    return kernel_args().add(a.buf(a.floats(n, 0.01f, 50.0f))).add(a.zeros<float>(n * 7)).add(n);
  });
  add("arith", "ref_expf_like", {4}, {64}, [=](arena& a) {
    return kernel_args().add(a.buf(a.floats(n, -80, 80))).add(a.zeros<float>(n)).add(n);
  });
  add("arith", "ref_divergent_loops", {4}, {64}, [=](arena& a) {
    std::vector<uint32_t> v(n);
    for (auto& x : v) x = a.rng() % 1000;
    return kernel_args().add(a.buf(v)).add(a.zeros<uint32_t>(n * 2)).add(100u).add(n);
  });
  add("wave", "ref_reduce_dpp", {2}, {128}, [](arena& a) {
    return kernel_args().add(a.buf(a.ints(256))).add(a.zeros<int32_t>(4)).add(a.zeros<float>(4));
  });
  add("wave", "ref_scan_dpp", {1}, {128}, [](arena& a) {
    return kernel_args().add(a.buf(a.ints(128))).add(a.zeros<int32_t>(256));
  });
  add("wave", "ref_bpermute", {1}, {128}, [](arena& a) {
    return kernel_args().add(a.buf(a.ints(128))).add(a.buf(a.ints(128))).add(a.zeros<int32_t>(512));
  });
  add("wave", "ref_bitonic_wave", {1}, {128}, [](arena& a) {
    return kernel_args().add(a.buf(a.ints(128))).add(a.zeros<int32_t>(128)).add(0);
  });
  add("wave", "ref_transpose", {2, 2}, {32, 8}, [](arena& a) {
    return kernel_args().add(a.buf(a.floats(40 * 36, -1, 1))).add(a.zeros<float>(40 * 36)).add(40u).add(36u);
  });
  add("wave", "ref_atomics_global", {2}, {256}, [](arena& a) {
    const uint32_t m = 300;
    std::vector<int32_t> c = {0, 0, INT32_MIN, INT32_MAX, 0, -1, 0, -1, 0};
    return kernel_args().add(a.buf(a.ints(m))).add(a.buf(c)).add(a.zeros<int32_t>(m)).add(a.zeros<int64_t>(1))
        .add(a.zeros<float>(1)).add(a.zeros<int32_t>(m)).add(m);
  });
  add("wave", "ref_atomics_lds", {2}, {256}, [](arena& a) {
    const uint32_t m = 300;
    std::vector<uint32_t> d(m);
    for (auto& x : d) x = a.rng() % 5000;
    return kernel_args().add(a.buf(d)).add(a.zeros<uint32_t>(64)).add(a.buf(std::vector<int32_t>{INT32_MIN, INT32_MAX}))
        .add(a.zeros<float>(1)).add(a.zeros<uint32_t>(m)).add(m);
  });
  add("mfma", "kernel_gemv_v0", {1}, {128}, [](arena& a) {
    return kernel_args().add(a.buf(a.floats(512, -1, 1))).add(a.buf(a.floats(4, -1, 1))).add(a.zeros<float>(128));
  });
  add("mfma", "kernel_gemv_v1", {1}, {128}, [](arena& a) {
    std::vector<uint16_t> m(512), v(4);
    for (auto& x : m) x = float_to_half_bits((float)(a.rng() % 7) - 3.0f);
    for (auto& x : v) x = float_to_half_bits((float)(a.rng() % 7) - 3.0f);
    return kernel_args().add(a.buf(m)).add(a.buf(v)).add(a.zeros<uint16_t>(128));
  });
  add("mfma", "ref_mfma_32x32x8_bf16", {1}, {64}, [](arena& a) {
    return kernel_args().add(a.buf(a.bf16s(256))).add(a.buf(a.bf16s(256))).add(a.buf(a.floats(1024, -1, 1))).add(a.zeros<float>(1024));
  });
  add("mfma", "ref_mfma_16x16x16_f16", {1}, {64}, [](arena& a) {
    std::vector<uint16_t> m(256);
    for (auto& x : m) x = float_to_half_bits((float)(a.rng() % 5) - 2.0f);
    return kernel_args().add(a.buf(m)).add(a.buf(m)).add(a.buf(a.floats(256, -1, 1))).add(a.zeros<float>(256));
  });
  add("mfma", "ref_gemm_bf16", {2, 2}, {256}, [](arena& a) {
    return kernel_args().add(a.buf(a.bf16s(128 * 64))).add(a.buf(a.bf16s(128 * 64))).add(a.zeros<float>(128 * 128))
        .add(128u).add(128u).add(64u);
  });
  return r;
}

// Cases the straight-line model leaves UNCERTAIN (their region starts at a join point) but
// whose harm follows from the kernel's source, pinned here with the reasoning. Returns true
// if `mu` is one of them (and sets its verdict).
bool pin_known_case(const kernel_asm& k, size_t i, mutation& mu) {
  // ref_atomics_lds: the s_waitcnt lgkmcnt(0) right before the second s_barrier retires the
  // no-return LDS atomics of every wave on lmax/lmin/lsum (LDS +256/+260/+264; ds_add_f32 on
  // lsum is each wave's youngest LDS op). Weakened, waves 1-3 pass the barrier with at least
  // ds_add_f32 still pending, and wave 0 (t == 0) reads lsum (+264) after the barrier: an LDS
  // race. Deleting the wait leaves all three pending (the first racy read is lmax, +256).
  if (k.name != "ref_atomics_lds" || i + 1 >= k.code.size() || !starts(k.code[i + 1].mnemonic, "s_barrier") ||
      parse_waitcnt(k.code[i]).lgkm != 0)
    return false;
  bool after_add_f32 = false;
  for (size_t j = i >= 8 ? i - 8 : 0; j < i; ++j) after_add_f32 = after_add_f32 || starts(k.code[j].mnemonic, "ds_add_f32");
  if (!after_add_f32) return false;
  std::string lsum_read;
  for (size_t j = i + 1; j < k.code.size() && lsum_read.empty(); ++j)
    if (starts(k.code[j].mnemonic, "ds_read_b32") && has(k.code[j].modifiers, "offset:264")) lsum_read = k.code[j].text;
  if (mu.kind == "raise lgkmcnt") {
    mu.expect = verdict::harmful;
    mu.why = "(pinned) waves 1-3 keep ds_add_f32 on lsum pending across s_barrier; wave 0 then reads it";
    mu.consumer = lsum_read;
    return true;
  }
  if (mu.kind == "delete s_waitcnt") {
    mu.expect = verdict::harmful;
    mu.why = "(pinned) waves 1-3 keep their LDS atomics on lmax/lmin/lsum pending across s_barrier; wave 0 reads them";
    return true;
  }
  return false;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream f(path);
  INFO("reading " << path);
  REQUIRE(f.good());
  std::vector<std::string> v;
  std::string l;
  while (std::getline(f, l)) v.push_back(l);
  return v;
}

std::string work_dir() {
  std::string d = std::string(HIPASM_SIM_TEST_DIR) + "/mutants-" + std::to_string(::getpid());
  std::filesystem::create_directories(d);
  return d;
}

// Assemble (and link) a .s into a code object with clang++-22, as the issue prescribes.
bool assemble(const std::string& s_path, const std::string& co_path, std::string& err) {
  std::string log = co_path + ".log";
  std::string cmd = std::string("\"") + HIPASM_REFSUITE_ASM_CXX + "\" -target amdgcn-amd-amdhsa -mcpu=gfx942 \"" + s_path +
                    "\" -o \"" + co_path + "\" > \"" + log + "\" 2>&1";
  int rc = std::system(cmd.c_str());
  if (rc != 0) {
    std::ifstream f(log);
    std::getline(f, err);
  }
  return rc == 0;
}

struct outcome {
  bool reported = false, threw = false;
  std::string first, all;  // first diagnostic (or the error), and all of them
};
outcome run_recipe(const recipe& rc, module& m) {
  arena a{*the_device()};
  kernel_args args = rc.args(a);
  outcome o;
  try {
    launch_options opts;
    opts.instruction_budget = 50'000'000;  // a mutant that hangs is an error, not a stall
    auto rep = the_device()->launch(m, rc.kernel, rc.grid, rc.block, args, opts);
    o.reported = !rep.diagnostics.empty();
    if (o.reported) o.first = rep.diagnostics[0];
    for (auto& d : rep.diagnostics) o.all += d + "\n";
  } catch (const std::exception& e) {
    o.threw = true;
    o.first = e.what();
  }
  return o;
}

}  // namespace

TEST_CASE("checker mutations: clang's s_nop and s_waitcnt are each needed where we say so", "[mutations][checker]") {
  REFSUITE_REQUIRE_DEVICE();
  if (backend_from_env() != backend::sim) {
    WARN("the checker exists only in the simulator backend: skipped");
    return;
  }
  auto t0 = std::chrono::steady_clock::now();
  const std::string dir = work_dir();
  auto rs = recipes();
  struct result {
    mutation mu;
    outcome got;
  };
  std::vector<result> results;
  std::string failures;
  size_t assembled = 0, pinned = 0;
  for (std::string group : {"arith", "wave", "mfma"}) {
    const std::string s_path = std::string(HIPASM_SIM_TEST_DIR) + "/kernels/simref_" + group + ".s";
    auto lines = read_lines(s_path);
    auto kernels = parse_kernels(lines);
    REQUIRE(!kernels.empty());
    // The unmodified file, re-assembled the same way, is clean for every kernel.
    {
      std::string co = dir + "/" + group + "-baseline.co", err;
      INFO("assembling " << s_path << ": " << err);
      REQUIRE(assemble(s_path, co, err));
      auto m = the_device()->load_file(co);
      for (auto& rc : rs)
        if (rc.group == group) {
          auto o = run_recipe(rc, *m);
          INFO("baseline " << rc.kernel << ": " << o.first);
          CHECK_FALSE(o.reported);
          CHECK_FALSE(o.threw);
        }
    }
    std::vector<mutation> muts;
    for (const auto& k : kernels) {
      bool has_recipe = false;
      for (auto& rc : rs) has_recipe = has_recipe || (rc.group == group && rc.kernel == k.name);
      INFO("kernel " << k.name << " of " << group << " has no launch recipe");
      REQUIRE(has_recipe);
      for (size_t i = 0; i < k.code.size(); ++i) {
        const instr& in = k.code[i];
        if (starts(in.mnemonic, "s_nop")) {
          mutation mu{k.name, i, in.line, in.text, "", "delete s_nop"};
          classify_nop(k, i, mu);
          muts.push_back(mu);
        } else if (in.mnemonic == "s_waitcnt") {
          waitcnt w = parse_waitcnt(in);
          mutation del{k.name, i, in.line, in.text, "", "delete s_waitcnt"};
          classify_waitcnt(k, i, std::nullopt, del);
          pinned += pin_known_case(k, i, del);
          muts.push_back(del);
          if (w.vm < 63 && (w.lgkm < 15 || w.vm + 1 < 63)) {
            waitcnt weak = w;
            weak.vm = w.vm + 1;
            mutation mu{k.name, i, in.line, in.text, "\t" + print_waitcnt(weak), "raise vmcnt"};
            classify_waitcnt(k, i, weak, mu);
            muts.push_back(mu);
          }
          if (sink_is_candidate(k, i)) {
            // Not a weakening but a reordering that is harmless unless the moved instruction
            // touches what the wait guards: it checks the checker for false positives.
            mutation mu{k.name, i, in.line, in.text, lines[k.code[i + 1].line], "sink s_waitcnt"};
            mu.line2 = k.code[i + 1].line;
            mu.replacement2 = lines[in.line];
            classify_sink(k, i, mu);
            muts.push_back(mu);
          }
          if (hoist_is_candidate(k, i)) {
            mutation mu{k.name, i, in.line, in.text, lines[k.code[i - 1].line], "hoist s_waitcnt"};
            mu.line2 = k.code[i - 1].line;
            mu.replacement2 = lines[in.line];
            mu.expect = verdict::harmless;
            mu.why = "the wait moves above '" + k.code[i - 1].text +
                     "': it retires at least as much everywhere after, and no hazard window used it";
            muts.push_back(mu);
          }
          if (w.lgkm < 15 && (w.vm < 63 || w.lgkm + 1 < 15)) {
            waitcnt weak = w;
            weak.lgkm = w.lgkm + 1;
            mutation mu{k.name, i, in.line, in.text, "\t" + print_waitcnt(weak), "raise lgkmcnt"};
            classify_waitcnt(k, i, weak, mu);
            pinned += pin_known_case(k, i, mu);
            muts.push_back(mu);
          }
        }
      }
    }
    // Bound the run time: at most 250 mutants per group (evenly spaced; the suite has fewer).
    // Kernels of a group are disjoint code, so one assembled file carries one mutation per
    // kernel: round r applies each kernel's r-th mutation and runs every kernel it mutated.
    size_t stride = muts.size() > 250 ? (muts.size() + 249) / 250 : 1;
    std::map<std::string, std::vector<size_t>> by_kernel;
    for (size_t mi = 0; mi < muts.size(); mi += stride) by_kernel[muts[mi].kernel].push_back(mi);
    for (size_t round = 0;; ++round) {
      std::vector<size_t> batch;
      for (auto& [kname, list] : by_kernel)
        if (round < list.size()) batch.push_back(list[round]);
      if (batch.empty()) break;
      std::vector<std::string> mutated = lines;  // (line numbers index `lines`)
      for (size_t mi : batch) {
        mutated[muts[mi].line] = muts[mi].replacement;
        if (!muts[mi].replacement2.empty()) mutated[muts[mi].line2] = muts[mi].replacement2;
      }
      std::string base = dir + "/" + group + "-" + std::to_string(round);
      {
        std::ofstream f(base + ".s");
        for (auto& l : mutated) f << l << "\n";
      }
      std::string err;
      if (!assemble(base + ".s", base + ".co", err)) {
        failures += "mutant round " + std::to_string(round) + " of " + group + " does not assemble: " + err + "\n";
        continue;
      }
      ++assembled;
      auto m = the_device()->load_file(base + ".co");
      for (size_t mi : batch) {
        const mutation& mu = muts[mi];
        const recipe* rc = nullptr;
        for (auto& r : rs)
          if (r.group == group && r.kernel == mu.kernel) rc = &r;
        results.push_back({mu, run_recipe(*rc, *m)});
      }
      std::filesystem::remove(base + ".s");
      std::filesystem::remove(base + ".co");
      std::filesystem::remove(base + ".co.log");
    }
  }
  std::filesystem::remove_all(dir);

  // The table: verdict x (reported by a diagnostic / by a fatal error / silent).
  size_t n[3][3] = {};
  std::string detail;
  for (auto& r : results) {
    int v = (int)r.mu.expect, g = r.got.reported ? 0 : r.got.threw ? 1 : 2;
    n[v][g]++;
    std::string where = r.mu.kernel + " line " + std::to_string(r.mu.line + 1) + " [" + r.mu.kind + "] '" + r.mu.original +
                        "'" + (r.mu.replacement.empty() ? "" : " -> '" + r.mu.replacement.substr(1) + "'");
    detail += std::string(name(r.mu.expect)) + (g == 0 ? " reported " : g == 1 ? " FATAL    " : " silent   ") + where +
              "\n    why: " + r.mu.why + (r.got.first.empty() ? "" : "\n    sim: " + r.got.first) + "\n";
    if (r.mu.expect == verdict::harmful && g == 2)
      failures += "NOT REPORTED (harmful): " + where + "\n    why harmful: " + r.mu.why + "\n";
    // A report must name the instruction at fault (and a hazard's producer), not just any.
    if (r.mu.expect == verdict::harmful && g == 0 && !r.mu.consumer.empty() &&
        (r.got.all.find(r.mu.consumer) == std::string::npos ||
         (!r.mu.producer.empty() && r.got.all.find(r.mu.producer) == std::string::npos)))
      failures += "REPORTED ELSEWHERE (harmful): " + where + "\n    expected a diagnostic naming '" + r.mu.consumer + "'" +
                  (r.mu.producer.empty() ? "" : " and '" + r.mu.producer + "'") + "\n    sim: " + r.got.first + "\n";
    if (r.mu.expect == verdict::harmless && g != 2)
      failures += "FALSE POSITIVE (harmless): " + where + "\n    why harmless: " + r.mu.why + "\n    sim: " + r.got.first + "\n";
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char table[512];
  std::snprintf(table, sizeof table,
                "mutants run: %zu (in %zu assembled files) in %.1f s\n"
                "            reported  fatal  silent\n"
                "HARMFUL     %8zu %6zu %7zu\n"
                "harmless    %8zu %6zu %7zu\n"
                "uncertain   %8zu %6zu %7zu\n",
                results.size(), assembled, secs, n[0][0], n[0][1], n[0][2], n[1][0], n[1][1], n[1][2], n[2][0], n[2][1],
                n[2][2]);
  WARN(table);
  if (const char* v = std::getenv("HIPASM_MUTATIONS_VERBOSE"); v && *v == '1') WARN(detail);
  INFO(table << failures);
  CHECK(failures.empty());
  // Not vacuous: the suite has many waits and nops that are needed, and they all ran.
  CHECK(n[0][0] + n[0][1] + n[0][2] >= 40);
  CHECK(results.size() >= 150);
  CHECK(pinned == 2);  // the pinned cases still exist in clang's output
}
