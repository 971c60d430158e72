// Semantics of the global wave sync instructions (ds_gws_*), per the Vega / CDNA3 ISA guides.
//
// Model (state in Dispatch::gws, see core.hpp):
// - Resource id = (M0[21:16] + instruction offset) mod 64 (LLVM's SelectDS_GWS documents the
//   M0 part, which some versions of the guide omit). The data value, where an instruction
//   takes one, is the data VGPR of the first active lane (an EXEC of 0 is an error).
// - ds_gws_init: counter = value; a barrier then waits for value + 1 waves.
// - ds_gws_barrier: counter <= 0 -> this wave completes the round: every waiting wave is
//   released and the counter re-armed with this wave's value; else counter -= 1 and the wave
//   blocks. (So the first barrier on a resource nobody initialised passes and arms it.)
// - ds_gws_sema_v: counter += 1; ds_gws_sema_br: counter += value; ds_gws_sema_release_all:
//   counter = number of waiting waves. Then waiting ds_gws_sema_p waves are released in
//   arrival order while counter > 0, each taking 1. ds_gws_sema_p: takes 1 if counter > 0 and
//   nobody waits, else blocks.
// - A blocked wave stops issuing at the instruction itself (the hardware blocks the wave's
//   lgkmcnt return instead; nothing a correct program can observe differs). The instructions
//   still count on lgkmcnt as DS operations do (the checker's pending model, unchanged).
// - Barrier and semaphore waiters on one resource at once are an error, as is ds_gws_init
//   while waves wait. The dispatcher reports waves blocked forever (deadlock).
#include <algorithm>
#include <bit>
#include <string>

#include "core.hpp"

namespace hipasm::sim {
namespace {

GwsResource& resource(const Wave& w, const Inst& in, uint32_t* id = nullptr) {
  Gws* g = w.dispatch ? w.dispatch->gws : nullptr;
  if (!g) fail(in, "GWS state missing (internal: the dispatch was not set up for ds_gws_*)");
  uint32_t rid = (((w.m0 >> 16) & 63u) + uint32_t(in.mod.offset)) % Gws::kResources;
  if (id) *id = rid;
  return g->res[rid];
}

uint32_t first_lane_value(const Wave& w, const Inst& in) {
  if (!w.exec) fail(in, "EXEC is 0: no lane supplies the GWS data value");
  return read_u32(w, in.src[0], std::countr_zero(w.exec));
}

bool is_barrier_wait(const Wave* x) { return x->gws_wait && x->gws_wait->mnemonic == "ds_gws_barrier"; }

void block(Wave& w, const Inst& in, GwsResource& r) {
  w.gws_wait = &in;
  r.waiting.push_back(&w);
}

void check_kind(const Inst& in, const GwsResource& r, uint32_t rid, bool barrier) {
  if (!r.waiting.empty() && is_barrier_wait(r.waiting.front()) != barrier)
    fail(in, "GWS resource " + std::to_string(rid) + " used as a " + (barrier ? "barrier" : "semaphore") +
                 " while waves wait on it as a " + (barrier ? "semaphore" : "barrier"));
}

// Semaphore: hand the counter to waiting P operations in arrival order.
void wake_semaphore(GwsResource& r) {
  size_t n = 0;
  while (n < r.waiting.size() && r.counter > 0) {
    r.waiting[n++]->gws_wait = nullptr;
    --r.counter;
  }
  r.waiting.erase(r.waiting.begin(), r.waiting.begin() + std::ptrdiff_t(n));
}

void ds_gws_init(Wave& w, const Inst& in) {
  uint32_t rid;
  GwsResource& r = resource(w, in, &rid);
  uint32_t v = first_lane_value(w, in);
  if (!r.waiting.empty())
    fail(in, "ds_gws_init of GWS resource " + std::to_string(rid) + " while " +
                 std::to_string(r.waiting.size()) + " waves wait on it");
  r.counter = v;
  r.waves = v + 1;
}

void ds_gws_barrier(Wave& w, const Inst& in) {
  uint32_t rid;
  GwsResource& r = resource(w, in, &rid);
  uint32_t v = first_lane_value(w, in);
  check_kind(in, r, rid, true);
  if (r.counter <= 0) {
    for (Wave* x : r.waiting) x->gws_wait = nullptr;
    r.waiting.clear();
    r.counter = v;
    r.waves = v + 1;
    return;
  }
  if (r.waves == 0) r.waves = uint32_t(r.counter) + 1;
  --r.counter;
  block(w, in, r);
}

void ds_gws_sema_v(Wave& w, const Inst& in) {
  uint32_t rid;
  GwsResource& r = resource(w, in, &rid);
  check_kind(in, r, rid, false);
  r.counter += 1;
  wake_semaphore(r);
}

void ds_gws_sema_br(Wave& w, const Inst& in) {
  uint32_t rid;
  GwsResource& r = resource(w, in, &rid);
  uint32_t v = first_lane_value(w, in);
  check_kind(in, r, rid, false);
  r.counter += v;
  wake_semaphore(r);
}

void ds_gws_sema_release_all(Wave& w, const Inst& in) {
  uint32_t rid;
  GwsResource& r = resource(w, in, &rid);
  check_kind(in, r, rid, false);
  r.counter = int64_t(r.waiting.size());
  wake_semaphore(r);
}

void ds_gws_sema_p(Wave& w, const Inst& in) {
  uint32_t rid;
  GwsResource& r = resource(w, in, &rid);
  check_kind(in, r, rid, false);
  if (r.counter > 0 && r.waiting.empty()) {
    --r.counter;
    return;
  }
  block(w, in, r);
}

const Registrar gws_handlers{
    {"ds_gws_init", ds_gws_init},
    {"ds_gws_barrier", ds_gws_barrier},
    {"ds_gws_sema_v", ds_gws_sema_v},
    {"ds_gws_sema_br", ds_gws_sema_br},
    {"ds_gws_sema_release_all", ds_gws_sema_release_all},
    {"ds_gws_sema_p", ds_gws_sema_p},
};

}  // namespace
}  // namespace hipasm::sim
