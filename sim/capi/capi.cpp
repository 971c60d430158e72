// hipasm/sim/capi.h over the runtime (hipasm::rt, rt/) and the simulator's loader: handles own the C++ objects, every entry point
// turns an exception into a status and hipasm_sim_last_error's message.
#include "hipasm/sim/capi.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "bundle.hpp"
#include "elf.hpp"
#include "error.hpp"
#include "hipasm/rt/launcher.hpp"
#include "hipasm/rt/profile.hpp"

namespace rt = hipasm::rt;
namespace sim = hipasm::sim;

struct hipasm_sim_code_object {
  sim::CodeObject code;
};
struct hipasm_sim_device {
  std::unique_ptr<rt::device> owned;  // (a node's devices are the node's)
  rt::device* dev = nullptr;
  std::string target;  // dev->target(), for hipasm_sim_device_target
};
struct hipasm_sim_node {
  std::unique_ptr<rt::node> node;
  std::vector<hipasm_sim_device> devices;
};
struct hipasm_sim_module {
  std::unique_ptr<rt::module> mod;
  // The loader's metadata, for the kernarg split and the caller: parsed again here because
  // rt::module shows only kernel names (once per load).
  hipasm_sim_code_object info;
};
struct hipasm_sim_report {
  rt::launch_report report;
  std::string summary, json;
  uint32_t errors = 0;
};

namespace {

thread_local std::string last_error;

struct invalid_argument {
  std::string what;
};

int fail(int status, std::string msg) {
  last_error = std::move(msg);
  return status;
}

// Runs f, mapping what it throws to a status; nothing escapes into the C caller.
template <class F>
int guarded(F&& f) {
  try {
    f();
    last_error.clear();
    return HIPASM_SIM_OK;
  } catch (const invalid_argument& e) {
    return fail(HIPASM_SIM_INVALID_ARGUMENT, e.what);
  } catch (const rt::error& e) {
    return fail(HIPASM_SIM_ERROR, e.what());
  } catch (const sim::error& e) {  // the loader's, called directly for the metadata
    return fail(HIPASM_SIM_ERROR, e.what());
  } catch (const std::bad_alloc&) {
    return fail(HIPASM_SIM_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(HIPASM_SIM_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(HIPASM_SIM_INTERNAL, "internal error");
  }
}

template <class T>
T& need(T* p, const char* what) {
  if (!p) throw invalid_argument{std::string(what) + " is null"};
  return *p;
}

const sim::KernelInfo& kernel_at(const hipasm_sim_code_object* co, uint32_t i) {
  const auto& ks = need(co, "code object").code.kernels;
  if (i >= ks.size())
    throw invalid_argument{"kernel index " + std::to_string(i) + " out of range (" + std::to_string(ks.size()) +
                           " kernels)"};
  return ks[i];
}

uint32_t explicit_end(const sim::KernelInfo& k) {
  uint32_t end = 0;
  for (const auto& a : k.args)
    if (!a.hidden()) end = std::max(end, a.offset + a.size);
  return end;
}

std::vector<std::string> split_commas(const char* s) {
  std::vector<std::string> out;
  if (!s) return out;
  std::string cur;
  for (const char* p = s;; ++p) {
    if (*p == ',' || !*p) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (!*p) break;
    } else if (*p != ' ') {
      cur += *p;
    }
  }
  return out;
}

// The packed buffer back into per-argument entries: the launcher checks and places them again
// and fills the hidden arguments, exactly as for a C++ caller.
rt::kernel_args split_kernarg(const sim::KernelInfo& k, const void* kernarg, size_t kernarg_bytes) {
  const uint32_t end = explicit_end(k);
  if (kernarg_bytes < end)
    throw rt::error("launch of '" + sim::printable(k.name) + "': the kernarg buffer is " +
                    std::to_string(kernarg_bytes) + " bytes, its explicit arguments end at " + std::to_string(end));
  const auto* base = static_cast<const uint8_t*>(kernarg);
  rt::kernel_args args;
  for (const auto& a : k.args)
    if (!a.hidden()) args.add_bytes(base + a.offset, a.size);
  return args;
}

// The C options as the launcher's (po: the profile options lo points to, when profiling).
rt::launch_options options_of(const hipasm_sim_launch_options& o, rt::profile_options& po) {
  rt::launch_options lo;
  lo.dynamic_lds = o.dynamic_lds;
  lo.seed = o.seed;
  lo.instruction_budget = o.instruction_budget;
  lo.threads = o.threads;
  lo.check = o.check != 0;
  lo.check_undefined = o.check_undefined != 0;
  lo.allow = split_commas(o.allow);
  if (o.profile_device) {
    po.device = o.profile_device;
    po.clock_mhz = o.clock_mhz;
    po.keep_events = o.keep_events != 0;
    po.sample_cus = o.sample_cus;
    lo.profile = &po;
  }
  return lo;
}

void finish(hipasm_sim_report& r) {
  r.summary = rt::checker_summary(r.report);
  r.errors = static_cast<uint32_t>(r.report.diagnostics.size());
  if (r.report.profile) r.json = r.report.profile->json();
}

}  // namespace

extern "C" {

int hipasm_sim_abi_version(void) { return HIPASM_SIM_ABI_VERSION; }
const char* hipasm_sim_last_error(void) { return last_error.c_str(); }

int hipasm_sim_inspect_target(const void* bytes, size_t size, const char* target, hipasm_sim_code_object** out) {
  return guarded([&] {
    need(out, "out");
    if (!bytes && size) throw invalid_argument{"bytes is null"};
    const std::span<const uint8_t> span(static_cast<const uint8_t*>(bytes), size);
    std::string pick = target ? target : "";
    if (pick.empty() && sim::is_offload_bundle(span)) {
      // No target named: a fat binary of one code object is that code object.
      std::vector<std::string> archs;
      for (const sim::BundleEntry& e : sim::read_offload_bundle(span))
        if (!e.processor().empty()) archs.push_back(e.processor());
      if (archs.size() != 1) {
        std::string list;
        for (const std::string& a : archs) list += (list.empty() ? "" : ", ") + sim::printable(a);
        throw rt::error("a fat binary of " + std::to_string(archs.size()) + " code objects (" + list +
                        "): name the target");
      }
      pick = archs[0];
    }
    auto co = std::make_unique<hipasm_sim_code_object>();
    co->code = sim::load_code_object(pick.empty() ? span : sim::select_code_object(span, pick));
    *out = co.release();
  });
}

int hipasm_sim_inspect(const void* bytes, size_t size, hipasm_sim_code_object** out) {
  return hipasm_sim_inspect_target(bytes, size, nullptr, out);
}

void hipasm_sim_code_object_free(hipasm_sim_code_object* co) { delete co; }

const char* hipasm_sim_code_object_target(const hipasm_sim_code_object* co) {
  return co ? co->code.target.c_str() : "";
}

int hipasm_sim_kernel_count(const hipasm_sim_code_object* co, uint32_t* count) {
  return guarded([&] { need(count, "count") = static_cast<uint32_t>(need(co, "code object").code.kernels.size()); });
}

int hipasm_sim_kernel_info(const hipasm_sim_code_object* co, uint32_t kernel, hipasm_sim_kernel* out) {
  return guarded([&] {
    const sim::KernelInfo& k = kernel_at(co, kernel);
    hipasm_sim_kernel& o = need(out, "out");
    o = {};
    o.name = k.name.c_str();
    o.symbol = k.symbol.c_str();
    o.kernarg_segment_size = k.kernarg_segment_size;
    o.kernarg_segment_align = k.kernarg_segment_align;
    o.group_segment_fixed_size = k.group_segment_fixed_size;
    o.private_segment_fixed_size = k.private_segment_fixed_size;
    o.arg_count = static_cast<uint32_t>(k.args.size());
    o.explicit_arg_count = static_cast<uint32_t>(k.explicit_arg_count());
    o.explicit_args_end = explicit_end(k);
    o.max_flat_workgroup_size = static_cast<uint32_t>(k.max_flat_workgroup_size);
    o.wavefront_size = static_cast<uint32_t>(k.wavefront_size);
    o.sgpr_count = static_cast<uint32_t>(k.sgpr_count);
    o.vgpr_count = static_cast<uint32_t>(k.vgpr_count);
    o.agpr_count = static_cast<uint32_t>(k.agpr_count);
    o.kernarg_preload_dwords = k.kd.kernarg_preload_length;
  });
}

int hipasm_sim_kernel_arg(const hipasm_sim_code_object* co, uint32_t kernel, uint32_t arg, hipasm_sim_arg* out) {
  return guarded([&] {
    const sim::KernelInfo& k = kernel_at(co, kernel);
    if (arg >= k.args.size())
      throw invalid_argument{"argument index " + std::to_string(arg) + " out of range ('" + sim::printable(k.name) +
                             "' has " + std::to_string(k.args.size()) + ")"};
    const sim::KernelArgInfo& a = k.args[arg];
    need(out, "out") = {a.name.c_str(), a.type_name.c_str(), a.value_kind.c_str(), a.address_space.c_str(),
                        a.offset,       a.size,              a.hidden(),           a.pointer()};
  });
}

int hipasm_sim_device_open_gpu(const char* gpu, hipasm_sim_device** out) {
  return guarded([&] {
    need(out, "out");
    auto d = std::make_unique<hipasm_sim_device>();
    d->owned = gpu && *gpu ? rt::device::open(rt::backend::sim, gpu) : rt::device::open(rt::backend::sim);
    d->dev = d->owned.get();
    d->target = d->dev->target();
    *out = d.release();
  });
}

int hipasm_sim_device_open(hipasm_sim_device** out) { return hipasm_sim_device_open_gpu(nullptr, out); }

const char* hipasm_sim_device_target(const hipasm_sim_device* dev) { return dev ? dev->target.c_str() : ""; }

void hipasm_sim_device_close(hipasm_sim_device* dev) { delete dev; }

int hipasm_sim_alloc(hipasm_sim_device* dev, size_t bytes, uint64_t* addr) {
  return guarded([&] { need(addr, "addr") = need(dev, "device").dev->alloc(bytes); });
}
int hipasm_sim_free(hipasm_sim_device* dev, uint64_t addr) {
  return guarded([&] { need(dev, "device").dev->free(addr); });
}
int hipasm_sim_copy_to_device(hipasm_sim_device* dev, uint64_t dst, const void* src, size_t bytes) {
  return guarded([&] {
    if (!src && bytes) throw invalid_argument{"src is null"};
    need(dev, "device").dev->copy_to_device(dst, src, bytes);
  });
}
int hipasm_sim_copy_from_device(hipasm_sim_device* dev, void* dst, uint64_t src, size_t bytes) {
  return guarded([&] {
    if (!dst && bytes) throw invalid_argument{"dst is null"};
    need(dev, "device").dev->copy_from_device(dst, src, bytes);
  });
}

int hipasm_sim_load(hipasm_sim_device* dev, const void* bytes, size_t size, hipasm_sim_module** out) {
  return guarded([&] {
    need(out, "out");
    if (!bytes && size) throw invalid_argument{"bytes is null"};
    const std::span<const uint8_t> span(static_cast<const uint8_t*>(bytes), size);
    auto m = std::make_unique<hipasm_sim_module>();
    m->mod = need(dev, "device").dev->load(span);
    m->info.code = sim::load_code_object(sim::select_code_object(span, dev->target));
    *out = m.release();
  });
}

int hipasm_sim_load_file(hipasm_sim_device* dev, const char* path, hipasm_sim_module** out) {
  return guarded([&] {
    need(out, "out");
    need(path, "path");
    auto m = std::make_unique<hipasm_sim_module>();
    m->mod = need(dev, "device").dev->load_file(path);
    m->info.code = sim::load_code_object(sim::select_code_object(sim::read_file_bytes(path), dev->target));
    *out = m.release();
  });
}

void hipasm_sim_module_free(hipasm_sim_module* m) { delete m; }

const hipasm_sim_code_object* hipasm_sim_module_code_object(const hipasm_sim_module* m) {
  return m ? &m->info : nullptr;
}

void hipasm_sim_launch_options_init(hipasm_sim_launch_options* o) {
  if (!o) return;
  *o = {};
  o->check = 1;
  o->check_undefined = 1;
}

int hipasm_sim_launch(hipasm_sim_device* dev, hipasm_sim_module* m, const char* kernel, const uint32_t grid[3],
                      const uint32_t block[3], const void* kernarg, size_t kernarg_bytes,
                      const hipasm_sim_launch_options* opts, hipasm_sim_report** out) {
  return guarded([&] {
    need(out, "out");
    need(dev, "device");
    need(m, "module");
    need(kernel, "kernel");
    need(grid, "grid");
    need(block, "block");
    if (!kernarg && kernarg_bytes) throw invalid_argument{"kernarg is null"};
    hipasm_sim_launch_options o;
    hipasm_sim_launch_options_init(&o);
    if (opts) o = *opts;

    rt::kernel_args args = split_kernarg(m->info.code.kernel(kernel), kernarg, kernarg_bytes);
    rt::profile_options po;
    const rt::launch_options lo = options_of(o, po);
    auto r = std::make_unique<hipasm_sim_report>();
    r->report = dev->dev->launch(*m->mod, kernel, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, args, lo);
    finish(*r);
    *out = r.release();
  });
}

int hipasm_sim_node_open(const char* gpu, uint32_t devices, hipasm_sim_node** out) {
  return guarded([&] {
    need(out, "out");
    need(gpu, "gpu");
    auto n = std::make_unique<hipasm_sim_node>();
    n->node = rt::node::open(rt::backend::sim, gpu, devices);
    n->devices.resize(devices);
    for (uint32_t i = 0; i < devices; ++i) {
      n->devices[i].dev = &n->node->at(i);
      n->devices[i].target = n->devices[i].dev->target();
    }
    *out = n.release();
  });
}

void hipasm_sim_node_close(hipasm_sim_node* node) { delete node; }

uint32_t hipasm_sim_node_size(const hipasm_sim_node* node) {
  return node ? static_cast<uint32_t>(node->devices.size()) : 0;
}

hipasm_sim_device* hipasm_sim_node_device(hipasm_sim_node* node, uint32_t i) {
  return node && i < node->devices.size() ? &node->devices[i] : nullptr;
}

int hipasm_sim_node_map_peer(hipasm_sim_node* node, uint32_t user, uint32_t owner, uint64_t addr, uint64_t* out) {
  return guarded([&] { need(out, "out") = need(node, "node").node->map_peer(user, owner, addr); });
}

int hipasm_sim_node_launch(hipasm_sim_node* node, const hipasm_sim_node_launch_desc* launches, uint32_t count,
                           const hipasm_sim_launch_options* opts, hipasm_sim_report** reports) {
  return guarded([&] {
    need(node, "node");
    need(reports, "reports");
    if (!launches && count) throw invalid_argument{"launches is null"};
    hipasm_sim_launch_options o;
    hipasm_sim_launch_options_init(&o);
    if (opts) o = *opts;
    if (o.profile_device) throw rt::error("node launch: no timing model of a node yet (profile_device must be NULL)");
    std::vector<rt::device_launch> ls(count);
    for (uint32_t i = 0; i < count; ++i) {
      const hipasm_sim_node_launch_desc& d = launches[i];
      const std::string which = "launch " + std::to_string(i) + ": ";
      if (!d.module) throw invalid_argument{which + "module is null"};
      if (!d.kernel) throw invalid_argument{which + "kernel is null"};
      if (!d.kernarg && d.kernarg_bytes) throw invalid_argument{which + "kernarg is null"};
      ls[i].mod = d.module->mod.get();
      ls[i].kernel = d.kernel;
      ls[i].grid = {d.grid[0], d.grid[1], d.grid[2]};
      ls[i].block = {d.block[0], d.block[1], d.block[2]};
      ls[i].args = split_kernarg(d.module->info.code.kernel(d.kernel), d.kernarg, d.kernarg_bytes);
    }
    rt::profile_options po;
    std::vector<rt::launch_report> rs = node->node->launch(ls, options_of(o, po));
    std::vector<std::unique_ptr<hipasm_sim_report>> made;
    for (rt::launch_report& rep : rs) {
      made.push_back(std::make_unique<hipasm_sim_report>());
      made.back()->report = std::move(rep);
      finish(*made.back());
    }
    for (uint32_t i = 0; i < count; ++i) reports[i] = made[i].release();
  });
}

void hipasm_sim_report_free(hipasm_sim_report* r) { delete r; }

uint64_t hipasm_sim_report_instructions(const hipasm_sim_report* r) { return r ? r->report.instructions : 0; }
uint32_t hipasm_sim_report_error_count(const hipasm_sim_report* r) { return r ? r->errors : 0; }
uint32_t hipasm_sim_report_finding_count(const hipasm_sim_report* r) {
  return r ? static_cast<uint32_t>(r->report.findings.size()) : 0;
}

int hipasm_sim_report_finding(const hipasm_sim_report* r, uint32_t i, hipasm_sim_finding* out) {
  return guarded([&] {
    const auto& fs = need(r, "report").report.findings;
    if (i >= fs.size()) throw invalid_argument{"finding index " + std::to_string(i) + " out of range"};
    const rt::checker_finding& f = fs[i];
    need(out, "out") = {f.pc,    f.rule.c_str(),    f.instruction.c_str(), f.message.c_str(), f.source.c_str(),
                        f.count, f.first_workgroup, f.first_wave,          f.allowed};
  });
}

const char* hipasm_sim_report_summary(const hipasm_sim_report* r) { return r ? r->summary.c_str() : ""; }
const char* hipasm_sim_report_profile_json(const hipasm_sim_report* r) {
  return r && r->report.profile ? r->json.c_str() : nullptr;
}

int hipasm_sim_report_write_trace(const hipasm_sim_report* r, const char* path) {
  return guarded([&] {
    const auto& prof = need(r, "report").report.profile;
    need(path, "path");
    if (!prof) throw rt::error("write_trace: the launch ran without a profile");
    if (prof->events.empty()) throw rt::error("write_trace: the profile kept no events (keep_events)");
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path, "w"), &std::fclose);
    if (!f) throw rt::error("cannot write " + sim::printable(path) + ": " + std::strerror(errno));
    prof->write_trace(f.get());
    if (std::fflush(f.get()) != 0 || std::ferror(f.get()))
      throw rt::error("cannot write " + sim::printable(path) + ": " + std::strerror(errno));
  });
}

}  // extern "C"
