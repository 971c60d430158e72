// rt::device's two backends: the simulator (Memory + run_dispatch) and real HIP through
// libamdhip64 (hipModuleLoadData / hipModuleLaunchKernel). Both share the simulator's
// code-object loader, so a bad code object or a wrong argument list fails the same way on both.
// What the simulator throws (sim::error) reaches the caller as rt::error with the same message.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "asm_listing.hpp"
#include "bundle.hpp"
#include "checker.hpp"
#include "decode.hpp"
#include "core.hpp"
#include "dispatch.hpp"
#include "elf.hpp"
#include "error.hpp"
#include "hipasm/rt/launcher.hpp"
#include "hipasm/rt/profile.hpp"
#include "kernarg.hpp"
#include "memory.hpp"
#include "peer.hpp"
#include "timing/device.hpp"
#include "timing/launch.hpp"

#if HIPASM_RT_HAVE_HIP
#include <hip/hip_runtime_api.h>
#endif

namespace hipasm::rt {

namespace {

// Runs f; a simulator error becomes the runtime's, with the same message.
template <class F>
decltype(auto) translated(F&& f) {
  try {
    return f();
  } catch (const sim::error& e) {
    throw error(e.what());
  }
}

sim::LaunchDims dims(dim3 d) { return {d.x, d.y, d.z}; }

// The explicit arguments as the simulator's kernarg builder takes them.
std::vector<sim::ArgBytes> arg_bytes(const kernel_args& args) {
  std::vector<sim::ArgBytes> out(args.entries().size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = {args.data(i), args.entries()[i].size};
  return out;
}

// launch_options::allow, checked against the checker's rule tags when the launch starts.
class rule_filter {
 public:
  explicit rule_filter(const std::vector<std::string>& names) {
    std::vector<std::string> known = sim::checker_rule_tags();
    for (std::string& t : sim::peer_rule_tags()) known.push_back(std::move(t));
    for (const std::string& n : names) {
      if (n == "all") {
        all_ = true;
        continue;
      }
      auto is = [&](const std::string& t) { return t == n || t == "hazard " + n; };
      auto it = std::find_if(known.begin(), known.end(), is);
      if (it == known.end()) {
        std::string list;
        for (const std::string& t : known) list += (list.empty() ? "" : ", ") + t;
        throw error("unknown checker rule '" + sim::printable(n) + "' (known: all, " + list + ")");
      }
      tags_.push_back(*it);
    }
  }
  bool operator()(const std::string& tag) const {
    return all_ || std::find(tags_.begin(), tags_.end(), tag) != tags_.end();
  }

 private:
  bool all_ = false;
  std::vector<std::string> tags_;
};

}  // namespace

std::string checker_summary(const launch_report& report) {
  std::vector<const checker_finding*> order;
  for (const checker_finding& f : report.findings) order.push_back(&f);
  std::sort(order.begin(), order.end(), [](const checker_finding* a, const checker_finding* b) {
    return a->rule != b->rule ? a->rule < b->rule : a->pc < b->pc;
  });
  auto plural = [](uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string out;
  char line[96];
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    uint64_t occurrences = 0;
    for (; j < order.size() && order[j]->rule == order[i]->rule; ++j) occurrences += order[j]->count;
    out += order[i]->rule + (order[i]->allowed ? " (warning): " : " (error): ") +
           plural(j - i, "instruction", "instructions") + ", " +
           plural(occurrences, "occurrence", "occurrences") + "\n";
    for (; i < j; ++i) {
      const checker_finding& f = *order[i];
      std::snprintf(line, sizeof line, "  0x%llx  %llux  first workgroup %u wave %u  ", (unsigned long long)f.pc,
                    (unsigned long long)f.count, f.first_workgroup, f.first_wave);
      out += line + f.instruction + "\n";
    }
  }
  return out;
}

backend backend_from_env() {
  const char* v = std::getenv("HIPASM_BACKEND");
  if (!v || !*v) return backend::sim;
  const std::string_view s(v);
  if (s == "sim") return backend::sim;
  if (s == "hip") return backend::hip;
  throw error("HIPASM_BACKEND='" + sim::printable(s) + "': expected 'sim' or 'hip'");
}

std::unique_ptr<module> device::load_file(const std::string& path) {
  const std::vector<uint8_t> bytes = translated([&] { return sim::read_file_bytes(path); });
  std::unique_ptr<module> m = load(bytes);
  // hipasm_add_code_object writes <target>.s (one source) or <target>.<source>.s beside <target>.co
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path co(path);
  const std::string stem = co.stem().string();
  const fs::path dir = co.has_parent_path() ? co.parent_path() : fs::path(".");
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".s" && (name == stem + ".s" || name.starts_with(stem + ".")))
      m->asm_listings.push_back(e.path().string());
  }
  std::sort(m->asm_listings.begin(), m->asm_listings.end());
  return m;
}

namespace {

// The source of each instruction of kernel `k` from the first of `listings` that has the kernel
// and matches its code; at() is empty when none does (the findings then name no line). The
// decoded program is looked up once, not per finding.
class finding_sources {
 public:
  finding_sources(const sim::KernelInfo& k, const std::vector<std::string>& listings) {
    for (const std::string& path : listings) {
      std::vector<sim::AsmLine> lines;
      try {
        lines = sim::asm_source_lines(path, k.name);
      } catch (const sim::error&) {
        continue;  // not this kernel's listing
      }
      if (!prog_) prog_ = sim::decoded_program(k.image);
      std::string mismatch;
      if (sim::match_asm_listing(*prog_, k.image.listing_entry, lines, sources_, mismatch)) return;
    }
    sources_.clear();
  }
  std::string at(uint64_t pc) const {
    if (sources_.empty()) return {};
    const sim::Inst* in = prog_->at(pc);
    return in ? sources_[size_t(in - prog_->insts.data())] : std::string();
  }

 private:
  std::shared_ptr<const sim::Program> prog_;
  std::vector<std::string> sources_;
};

}  // namespace

namespace detail {

// The first GPU of the timing model's table with `target` (gfx942: MI300X, gfx950: MI355X).
inline const sim::timing::DeviceSpec& first_gpu_of(std::string_view target) {
  for (const auto& d : sim::timing::kDevices)
    if (d.target == target) return d;
  return sim::timing::kDevices[0];
}

// ---------------------------------------------------------------- the simulator backend

struct sim_module final : module {
  std::shared_ptr<sim::Memory> memory;
  sim::CodeObject code;
  uint64_t image_addr = 0;  // the code object's image in device memory (vaddr 0)
  const void* owner = nullptr;

  ~sim_module() override {
    if (image_addr) {
      try {
        memory->free(image_addr);
      } catch (...) {  // a destructor must not throw; the Memory outlives us (shared_ptr)
      }
    }
  }
  std::vector<std::string> kernel_names() const override {
    std::vector<std::string> names;
    for (const auto& k : code.kernels) names.push_back(k.name);
    return names;
  }
  std::string target() const override { return code.arch->name; }
};

class sim_device final : public device {
 public:
  // `gpu`: the named GPU, which runs code objects of its own target only (a code object for
  // another target would run with the wrong ISA's formats and limits: gfx942's FNUZ fp8 on an
  // MI355X, 160 KiB of LDS on an MI300X). nullptr: device::open() without a name, which runs a
  // plain code object as its target says and takes a fat binary's gfx942 entry.
  explicit sim_device(const sim::timing::DeviceSpec* gpu, unsigned index = 0)
      : memory_(std::make_shared<sim::Memory>(index)), gpu_(gpu), target_(gpu ? gpu->target : "gfx942") {}
  std::string target() const override { return target_; }
  uint32_t compute_units() const override { return (gpu_ ? *gpu_ : first_gpu_of(target_)).cus(); }
  uint64_t alloc(size_t bytes) override {
    return translated([&] { return memory_->alloc(bytes); });
  }
  void free(uint64_t addr) override { translated([&] { memory_->free(addr); }); }
  void copy_to_device(uint64_t dst, const void* src, size_t bytes) override {
    translated([&] { memory_->write(dst, src, bytes); });
  }
  void copy_from_device(void* dst, uint64_t src, size_t bytes) override {
    translated([&] { memory_->read(src, dst, bytes); });
  }

  std::unique_ptr<module> load(std::span<const uint8_t> code_object) override {
    return translated([&] { return load_sim(code_object); });
  }

  launch_report launch(module& mod, std::string_view kernel, dim3 grid_blocks, dim3 block,
                       const kernel_args& args, const launch_options& opts) override {
    return translated([&] { return launch_sim(mod, kernel, grid_blocks, block, args, opts); });
  }

 private:
  std::unique_ptr<module> load_sim(std::span<const uint8_t> code_object) {
    auto m = std::make_unique<sim_module>();
    m->memory = memory_;
    m->owner = this;
    m->code = sim::load_code_object(sim::select_code_object(code_object, target_));
    if (gpu_ && m->code.arch->name != target_) throw error(sim::timing::wrong_target_message(m->code.arch->name, *gpu_));
    // Map the whole image so pc-relative data (s_getpc_b64 + offset) is readable. 4 KiB
    // alignment keeps the segments' own alignment.
    m->image_addr = memory_->alloc(std::max<uint64_t>(m->code.image_size, 4), 4096);
    const std::vector<uint8_t> image = m->code.image_at(m->image_addr);
    if (!image.empty()) memory_->write(m->image_addr, image.data(), image.size());
    for (auto& k : m->code.kernels) k.image.code_base = m->image_addr;
    return m;
  }

  // The kernel `kernel` of `mod` (loaded by this device) and its dispatch parameters.
  std::pair<const sim::KernelInfo*, sim::DispatchParams> dispatch_of(module& mod, std::string_view kernel, dim3 grid_blocks,
                                                                     dim3 block, const kernel_args& args,
                                                                     const launch_options& opts) {
    auto* m = dynamic_cast<sim_module*>(&mod);
    if (!m || m->owner != this) throw error("launch: the module was not loaded by this device");
    const sim::KernelInfo& k = m->code.kernel(kernel);
    sim::check_launch(k, dims(grid_blocks), dims(block), opts.dynamic_lds);
    sim::DispatchParams p;
    p.grid[0] = grid_blocks.x;
    p.grid[1] = grid_blocks.y;
    p.grid[2] = grid_blocks.z;
    p.block[0] = block.x;
    p.block[1] = block.y;
    p.block[2] = block.z;
    p.dynamic_lds = opts.dynamic_lds;
    p.kernarg = sim::build_kernarg(k, dims(grid_blocks), dims(block), arg_bytes(args), opts.dynamic_lds,
                                   sim::kernarg_layout::full);
    sim::extend_kernarg(k, p.kernarg, opts.kernarg_size);
    p.seed = opts.seed;
    p.trace = opts.trace;
    p.instruction_budget = opts.instruction_budget;
    p.threads = opts.threads;
    return {&k, std::move(p)};
  }

  // The findings of one launch as its report's diagnostics, warnings and findings.
  static void add_findings(launch_report& report, const sim::KernelInfo& k, const module& mod,
                           std::vector<sim::Finding> found, const rule_filter& allowed) {
    std::sort(found.begin(), found.end(), [](const sim::Finding& a, const sim::Finding& b) {
      return a.pc != b.pc ? a.pc < b.pc : a.rule < b.rule;
    });
    static const std::vector<std::string> no_listings;
    const finding_sources sources(k, found.empty() ? no_listings : mod.asm_listings);
    for (sim::Finding& f : found) {
      checker_finding c{f.pc, std::move(f.rule), std::move(f.inst), std::move(f.message), f.count,
                        f.first_workgroup, f.first_wave, false, sources.at(f.pc)};
      if (!c.source.empty()) c.message += " [" + c.source + "]";
      c.allowed = allowed(c.rule);
      (c.allowed ? report.warnings : report.diagnostics).push_back(c.message);
      report.findings.push_back(std::move(c));
    }
  }

  launch_report launch_sim(module& mod, std::string_view kernel, dim3 grid_blocks, dim3 block,
                           const kernel_args& args, const launch_options& opts) {
    auto [kp, p] = dispatch_of(mod, kernel, grid_blocks, block, args, opts);
    const sim::KernelInfo& k = *kp;
    const rule_filter allowed(opts.allow);
    sim::Checker checker(opts.check_undefined);
    sim::Checker* const check = opts.check ? &checker : nullptr;
    launch_report report;
    try {
      sim::DispatchResult r;
      if (opts.profile) {
        const profile_options& o = *opts.profile;
        r = sim::timing::run_profiled(k, p, *memory_, check,
                                      {o.device, o.clock_mhz, o.keep_events, o.asm_source, o.sample_cus});
      } else {
        r = sim::run_dispatch(k.image, p, *memory_, check);
      }
      report.instructions = r.instructions;
      report.lane_operations = r.lane_operations;
      if (r.profile) report.profile = std::make_shared<const profile>(profile{std::move(*r.profile)});
    } catch (const sim::error& e) {
      // The faulting instruction's source line, as the findings name theirs.
      std::string what = e.what();
      std::optional<finding_sources> sources;
      if (const auto* at = dynamic_cast<const sim::inst_error*>(&e)) {
        sources.emplace(k, mod.asm_listings);
        const std::string src = sources->at(at->pc);
        if (!src.empty()) what += " [" + src + "]";
      }
      // An undefined address usually faults right after the checker saw it: name the cause.
      if (check)
        for (const sim::Finding& f : checker.findings())
          if (f.rule.starts_with("undef-")) {
            if (!sources) sources.emplace(k, mod.asm_listings);
            const std::string src = sources->at(f.pc);
            throw error(what + " (after: " + f.message + (src.empty() ? "" : " at " + src) + ")");
          }
      throw error(what);
    }
    if (!check) return report;
    add_findings(report, k, mod, checker.findings(), allowed);
    return report;
  }

  friend class sim_node;
  std::shared_ptr<sim::Memory> memory_;
  const sim::timing::DeviceSpec* gpu_;
  std::string target_;
};

// ---------------------------------------------------------------- several simulated devices

class sim_node final : public node {
 public:
  sim_node(const sim::timing::DeviceSpec* gpu, unsigned n) {
    for (unsigned i = 0; i < n; ++i) devices_.push_back(std::make_unique<sim_device>(gpu, i));
  }
  unsigned size() const override { return unsigned(devices_.size()); }
  device& at(unsigned i) override { return *devices_.at(check_index(i, "at")); }
  uint64_t map_peer(unsigned user, unsigned owner, uint64_t addr) override {
    check_index(user, "map_peer user");
    check_index(owner, "map_peer owner");
    return translated([&] { return devices_[user]->memory_->map_peer(*devices_[owner]->memory_, addr); });
  }

  std::vector<launch_report> launch(std::span<const device_launch> launches, const launch_options& opts) override {
    return translated([&] { return launch_all(launches, opts); });
  }

 private:
  unsigned check_index(unsigned i, const char* what) const {
    if (i >= devices_.size())
      throw error(std::string("node::") + what + ": device " + std::to_string(i) + " of a node of " +
                  std::to_string(devices_.size()));
    return i;
  }

  std::vector<launch_report> launch_all(std::span<const device_launch> launches, const launch_options& opts) {
    if (launches.size() != devices_.size())
      throw error("node::launch: " + std::to_string(launches.size()) + " launches for " +
                  std::to_string(devices_.size()) + " devices (one per device)");
    if (opts.profile) throw error("node::launch: timing mode (launch_options::profile) is not supported on a node yet");
    const rule_filter allowed(opts.allow);
    const size_t n = launches.size();
    std::vector<sim::DispatchParams> params(n);
    std::vector<const sim::KernelInfo*> kernels(n);
    std::vector<std::unique_ptr<sim::Checker>> checkers(n);
    std::vector<sim::DeviceDispatch> dd(n);
    for (size_t i = 0; i < n; ++i) {
      const device_launch& l = launches[i];
      if (!l.mod) throw error("node::launch: launch " + std::to_string(i) + " has no module");
      auto [k, p] = devices_[i]->dispatch_of(*l.mod, l.kernel, l.grid, l.block, l.args, opts);
      kernels[i] = k;
      params[i] = std::move(p);
      if (opts.check) checkers[i] = std::make_unique<sim::Checker>(opts.check_undefined);
      dd[i] = {&k->image, &params[i], devices_[i]->memory_.get(), checkers[i].get()};
    }
    sim::PeerChecker peer;
    sim::NodeParams np;
    np.seed = opts.seed;
    np.peer = opts.check ? &peer : nullptr;
    const std::vector<sim::DispatchResult> rs = sim::run_dispatches(dd, np);
    std::vector<launch_report> out(n);
    for (size_t i = 0; i < n; ++i) {
      out[i].instructions = rs[i].instructions;
      out[i].lane_operations = rs[i].lane_operations;
      if (!opts.check) continue;
      std::vector<sim::Finding> found = checkers[i]->findings();
      for (sim::Finding& f : peer.findings(unsigned(i))) found.push_back(std::move(f));
      sim_device::add_findings(out[i], *kernels[i], *launches[i].mod, std::move(found), allowed);
    }
    return out;
  }

  std::vector<std::unique_ptr<sim_device>> devices_;
};

// ---------------------------------------------------------------- the HIP backend
#if HIPASM_RT_HAVE_HIP

void hip_check(hipError_t e, const char* what) {
  if (e != hipSuccess)
    throw error(std::string(what) + " failed: " + hipGetErrorName(e) + " (" + hipGetErrorString(e) + ")");
}

struct hip_module final : module {
  hipModule_t handle = nullptr;
  sim::CodeObject code;  // the same validation and argument metadata as the simulator
  const void* owner = nullptr;
  ~hip_module() override {
    if (handle) (void)hipModuleUnload(handle);
  }
  std::vector<std::string> kernel_names() const override {
    std::vector<std::string> names;
    for (const auto& k : code.kernels) names.push_back(k.name);
    return names;
  }
  std::string target() const override { return code.arch->name; }
};

class hip_device final : public device {
 public:
  // nullptr when there is no usable device (no driver, no GPU): tests skip.
  static std::unique_ptr<device> open() {
    if (hipInit(0) != hipSuccess) return nullptr;
    int n = 0;
    if (hipGetDeviceCount(&n) != hipSuccess || n <= 0) return nullptr;
    if (hipSetDevice(0) != hipSuccess) return nullptr;
    hipDeviceProp_t prop{};
    if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return nullptr;
    // "gfx942:sramecc+:xnack-": the processor picks a fat binary's entry, as HIP's runtime does.
    std::string arch(prop.gcnArchName, strnlen(prop.gcnArchName, sizeof prop.gcnArchName));
    return std::make_unique<hip_device>(arch.substr(0, arch.find(':')), uint32_t(std::max(prop.multiProcessorCount, 0)));
  }
  explicit hip_device(std::string target, uint32_t cus = 0) : target_(std::move(target)), cus_(cus) {}
  std::string target() const override { return target_; }
  uint32_t compute_units() const override { return cus_ ? cus_ : first_gpu_of(target_).cus(); }

  uint64_t alloc(size_t bytes) override {
    void* p = nullptr;
    hip_check(hipMalloc(&p, std::max<size_t>(bytes, 1)), "hipMalloc");
    return reinterpret_cast<uint64_t>(p);
  }
  void free(uint64_t addr) override { hip_check(hipFree(reinterpret_cast<void*>(addr)), "hipFree"); }
  void copy_to_device(uint64_t dst, const void* src, size_t bytes) override {
    hip_check(hipMemcpy(reinterpret_cast<void*>(dst), src, bytes, hipMemcpyHostToDevice), "hipMemcpy to device");
  }
  void copy_from_device(void* dst, uint64_t src, size_t bytes) override {
    hip_check(hipMemcpy(dst, reinterpret_cast<const void*>(src), bytes, hipMemcpyDeviceToHost),
              "hipMemcpy from device");
  }

  std::unique_ptr<module> load(std::span<const uint8_t> code_object) override {
    auto m = std::make_unique<hip_module>();
    m->owner = this;
    m->code = translated([&] { return sim::load_code_object(sim::select_code_object(code_object, target_)); });
    if (m->code.arch->name != target_)
      throw error(std::string(m->code.arch->name) + " code object on a " + target_ + " GPU");
    // The whole fat binary, as a HIP program hands it over: the runtime picks the entry.
    hip_check(hipModuleLoadData(&m->handle, code_object.data()), "hipModuleLoadData");
    return m;
  }

  launch_report launch(module& mod, std::string_view kernel, dim3 grid_blocks, dim3 block,
                       const kernel_args& args, const launch_options& opts) override {
    auto* m = dynamic_cast<hip_module*>(&mod);
    if (!m || m->owner != this) throw error("launch: the module was not loaded by this device");
    if (opts.profile) throw error("launch: timing mode (launch_options::profile) needs the sim backend");
    const sim::KernelInfo* k = translated([&] {
      const sim::KernelInfo* info = &m->code.kernel(kernel);
      sim::check_launch(*info, dims(grid_blocks), dims(block), opts.dynamic_lds);
      return info;
    });
    rule_filter{opts.allow};  // a bad rule name fails here as on the simulator
    // The runtime fills the hidden arguments itself; it takes the explicit ones packed at
    // their metadata offsets.
    std::vector<uint8_t> packed = translated([&] {
      std::vector<uint8_t> bytes = sim::build_kernarg(*k, dims(grid_blocks), dims(block), arg_bytes(args),
                                                      opts.dynamic_lds, sim::kernarg_layout::explicit_only);
      sim::extend_kernarg(*k, bytes, opts.kernarg_size);
      return bytes;
    });
    size_t size = packed.size();
    hipFunction_t f = nullptr;
    hip_check(hipModuleGetFunction(&f, m->handle, k->name.c_str()), "hipModuleGetFunction");
    void* config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, packed.data(), HIP_LAUNCH_PARAM_BUFFER_SIZE,
                      &size, HIP_LAUNCH_PARAM_END};
    hip_check(hipModuleLaunchKernel(f, grid_blocks.x, grid_blocks.y, grid_blocks.z, block.x, block.y,
                                    block.z, opts.dynamic_lds, nullptr, nullptr, config),
              "hipModuleLaunchKernel");
    hip_check(hipDeviceSynchronize(), "hipDeviceSynchronize");
    return {};  // hardware has no checker and no instruction counters
  }

 private:
  std::string target_;
  uint32_t cus_ = 0;  // hipDeviceProp_t's multiProcessorCount (0: not given)
};

#endif  // HIPASM_RT_HAVE_HIP

// The simulated GPU of that name (profile_devices()), or an error listing them.
const sim::timing::DeviceSpec& named_gpu(std::string_view gpu) {
  if (const sim::timing::DeviceSpec* spec = sim::timing::find_device(gpu)) return *spec;
  std::string names;
  for (const std::string& n : profile_devices()) names += (names.empty() ? "" : ", ") + n;
  throw error("unknown GPU '" + sim::printable(gpu) + "' (" + names + ")");
}

}  // namespace detail

std::unique_ptr<node> node::open(backend b, std::string_view gpu, unsigned devices) {
  if (devices < 1 || devices > sim::kMaxDevices)
    throw error("node::open: " + std::to_string(devices) + " devices (1.." + std::to_string(sim::kMaxDevices) + ")");
  if (b != backend::sim) return nullptr;  // real nodes: not yet (HIP IPC handles, a process group)
  return std::make_unique<detail::sim_node>(&detail::named_gpu(gpu), devices);
}

std::unique_ptr<device> device::open(backend b) {
  if (b == backend::sim) return std::make_unique<detail::sim_device>(nullptr);
  return open(b, "");
}

std::unique_ptr<device> device::open(backend b, std::string_view gpu) {
  if (b == backend::sim) return std::make_unique<detail::sim_device>(&detail::named_gpu(gpu));
#if HIPASM_RT_HAVE_HIP
  return detail::hip_device::open();
#else
  return nullptr;  // built without libamdhip64: no HIP device, tests skip
#endif
}

}  // namespace hipasm::rt
