// detail::pending_set (passes/common.hpp), the pending memory results of liveness and the wait
// passes, against a plain model of the counter rules written here: each record carries its
// own ages and every issue increments them (what the passes did before the set counted
// issues instead), records in an unsorted list searched linearly. Random sequences of
// issues, new results, s_waitcnt retirements and joins must give the same records (keys,
// ages, flags), the same retired keys, and the same answers of merge ("changed") and ==.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include <hipasm/hipasm.hpp>

using namespace hipasm;
using namespace hipasm::detail;

namespace {

struct model_record {
  uint32_t key;
  uint32_t vm_age, lgkm_age;
  bool on_vm, on_lgkm, out_of_order;
};
using record_tuple = std::tuple<uint32_t, uint32_t, uint32_t, bool, bool, bool>;

struct model_set {
  std::vector<model_record> recs;
  void issue(bool vm, bool in_order_lgkm) {
    for (model_record& r : recs) {
      if (vm && r.vm_age < 255) ++r.vm_age;
      if (in_order_lgkm && r.lgkm_age < 255) ++r.lgkm_age;
    }
  }
  bool put(uint32_t key, bool vm, bool lgkm, bool ooo) {
    for (model_record& r : recs)
      if (r.key == key) {
        r = {key, 0, 0, vm, lgkm, ooo};
        return false;
      }
    recs.push_back({key, 0, 0, vm, lgkm, ooo});
    return true;
  }
  std::vector<uint32_t> retire(uint32_t vm, uint32_t lgkm) {
    std::vector<uint32_t> gone;
    std::vector<model_record> kept;
    for (model_record r : recs) {
      if (r.on_vm && r.vm_age >= vm) r.on_vm = false;
      if (r.on_lgkm && (lgkm == 0 || (!r.out_of_order && r.lgkm_age >= lgkm))) r.on_lgkm = false;
      if (!r.on_vm && !r.on_lgkm) gone.push_back(r.key);
      else kept.push_back(r);
    }
    recs = kept;
    return gone;
  }
  bool merge(const model_set& o) {
    bool changed = false;
    for (const model_record& p : o.recs) {
      model_record* q = nullptr;
      for (model_record& r : recs)
        if (r.key == p.key) q = &r;
      if (!q) {
        recs.push_back(p);
        changed = true;
        continue;
      }
      if (p.vm_age < q->vm_age) q->vm_age = p.vm_age, changed = true;
      if (p.lgkm_age < q->lgkm_age) q->lgkm_age = p.lgkm_age, changed = true;
      if (p.on_vm && !q->on_vm) q->on_vm = true, changed = true;
      if (p.on_lgkm && !q->on_lgkm) q->on_lgkm = true, changed = true;
      if (p.out_of_order && !q->out_of_order) q->out_of_order = true, changed = true;
    }
    return changed;
  }
  std::vector<record_tuple> sorted() const {
    std::vector<record_tuple> v;
    for (const model_record& r : recs) v.emplace_back(r.key, r.vm_age, r.lgkm_age, r.on_vm, r.on_lgkm, r.out_of_order);
    std::sort(v.begin(), v.end());
    return v;
  }
};

std::vector<record_tuple> records_of(const pending_set& s) {
  std::vector<record_tuple> v;
  for (const pending_entry& e : s.pend) v.emplace_back(e.key, s.vm_age(e), s.lgkm_age(e), e.on_vm, e.on_lgkm, e.out_of_order);
  return v;  // (already in key order: checked against the sorted model)
}

// One random step on both; keys from a small range so that replacements and joins overlap.
// Long runs of issues drive ages past the 255 saturation.
void random_step(std::mt19937& rng, pending_set& s, model_set& m) {
  const uint32_t what = rng() % 18;
  if (what < 6) {
    const uint32_t times = rng() % 8 == 0 ? 300 : 1;
    const bool vm = rng() % 2, lgkm = rng() % 2;
    for (uint32_t t = 0; t < times; ++t) {
      s.issue(vm, lgkm);
      m.issue(vm, lgkm);
    }
  } else if (what < 12) {
    const uint32_t key = rng() % 24;
    const bool vm = rng() % 2, lgkm = !vm || rng() % 2, ooo = lgkm && rng() % 3 == 0;
    s.issue(vm, lgkm && !ooo);
    m.issue(vm, lgkm && !ooo);
    REQUIRE(s.put(key, vm, lgkm, ooo) == m.put(key, vm, lgkm, ooo));
  } else if (what < 14) {
    // A tuple's dwords at once (put_run): as many put()s of consecutive keys, some of them
    // already pending, some past the end, some between records.
    const uint32_t first = rng() % 24, n = 1 + rng() % 8;
    const bool vm = rng() % 2, lgkm = !vm || rng() % 2, ooo = lgkm && rng() % 3 == 0;
    s.issue(vm, lgkm && !ooo);
    m.issue(vm, lgkm && !ooo);
    uint32_t added = 0;
    for (uint32_t j = 0; j < n; ++j) added += m.put(first + j, vm, lgkm, ooo) ? 1 : 0;
    REQUIRE(s.put_run(first, n, vm, lgkm, ooo) == added);
  } else {
    const uint32_t vm = rng() % 3 == 0 ? 63 : rng() % 8, lgkm = rng() % 3 == 0 ? 15 : rng() % 4;
    std::vector<uint32_t> gone;
    s.retire({vm, lgkm}, [&](uint32_t key) { gone.push_back(key); });
    std::vector<uint32_t> model_gone = m.retire(vm, lgkm);
    std::sort(gone.begin(), gone.end());
    std::sort(model_gone.begin(), model_gone.end());
    REQUIRE(gone == model_gone);
  }
  REQUIRE(records_of(s) == m.sorted());
}

}  // namespace

TEST_CASE("pending_set: issue counters and sorted records equal the per-record age model", "[passes][waitcnt]") {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 400; ++trial) {
    // Two paths from a common state, then a join of both into a fresh set (a block's entry
    // state) and of one into the other (waitcnt_check's accumulated out state).
    pending_set s0;
    model_set m0;
    const int common = static_cast<int>(rng() % 20);
    for (int i = 0; i < common; ++i) random_step(rng, s0, m0);
    pending_set a = s0, b = s0;
    model_set ma = m0, mb = m0;
    const int na = static_cast<int>(rng() % 20), nb = static_cast<int>(rng() % 20);
    for (int i = 0; i < na; ++i) random_step(rng, a, ma);
    for (int i = 0; i < nb; ++i) random_step(rng, b, mb);
    REQUIRE((a == b) == (ma.sorted() == mb.sorted()));

    pending_set join;
    model_set mjoin;
    REQUIRE(join.merge(a) == mjoin.merge(ma));
    REQUIRE(join.merge(b) == mjoin.merge(mb));
    REQUIRE(records_of(join) == mjoin.sorted());
    REQUIRE(join == join);
    REQUIRE(!join.merge(a));  // (a join is idempotent)
    // The join goes on (its first merge was a copy of a's records and counters).
    pending_set cont = join;
    model_set mcont = mjoin;
    for (int i = 0; i < 10; ++i) random_step(rng, cont, mcont);
    // Into a set emptied by a wait after issuing (counters not at zero, no records): the copy.
    pending_set emptied = b;
    model_set memptied = mb;
    emptied.retire({0, 0});
    memptied.retire(0, 0);
    REQUIRE(emptied.empty());
    REQUIRE(emptied.merge(a) == memptied.merge(ma));
    REQUIRE(records_of(emptied) == memptied.sorted());
    REQUIRE(emptied.merge(b) == memptied.merge(mb));
    REQUIRE(records_of(emptied) == memptied.sorted());
    for (int i = 0; i < 10; ++i) random_step(rng, emptied, memptied);

    // Merge into a set that has issued since (counters not at zero), then go on from it.
    REQUIRE(a.merge(b) == ma.merge(mb));
    REQUIRE(records_of(a) == ma.sorted());
    REQUIRE((a == join) == (ma.sorted() == mjoin.sorted()));
    for (int i = 0; i < 10; ++i) random_step(rng, a, ma);
  }
}

TEST_CASE("pending_set: ages saturate at 255 and still retire at the wait's count", "[passes][waitcnt]") {
  pending_set s;
  s.put(7, true, false, false);
  for (int i = 0; i < 1000; ++i) s.issue(true, true);
  REQUIRE(s.vm_age(s.pend[0]) == 255);
  REQUIRE(s.lgkm_age(s.pend[0]) == 255);
  s.put(3, false, true, false);  // an LDS result: age 0 on lgkm
  std::vector<uint32_t> gone;
  s.retire({63, 15}, [&](uint32_t k) { gone.push_back(k); });  // vmcnt(63): retires the vm record
  REQUIRE(gone == std::vector<uint32_t>{7});
  REQUIRE(s.size() == 1);
  REQUIRE(s.pend[0].key == 3);
}
