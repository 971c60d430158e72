// rt::device's two backends: the simulator (Memory + run_dispatch) and real HIP through
// libamdhip64 (hipModuleLoadData / hipModuleLaunchKernel). Both share the code-object
// loader, so a bad code object or a wrong argument list fails the same way on both.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "checker.hpp"
#include "core.hpp"
#include "dispatch.hpp"
#include "elf.hpp"
#include "hipasm/sim/launcher.hpp"
#include "kernarg.hpp"
#include "timing/launch.hpp"

#if HIPASM_SIM_HAVE_HIP
#include <hip/hip_runtime_api.h>
#endif

namespace hipasm::rt {

backend backend_from_env() {
  const char* v = std::getenv("HIPASM_BACKEND");
  if (!v || !*v) return backend::sim;
  const std::string_view s(v);
  if (s == "sim") return backend::sim;
  if (s == "hip") return backend::hip;
  throw error("HIPASM_BACKEND='" + sim::printable(s) + "': expected 'sim' or 'hip'");
}

std::unique_ptr<module> device::load_file(const std::string& path) {
  const std::vector<uint8_t> bytes = sim::read_file_bytes(path);
  return load(bytes);
}

namespace detail {

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
};

class sim_device final : public device {
 public:
  uint64_t alloc(size_t bytes) override { return memory_->alloc(bytes); }
  void free(uint64_t addr) override { memory_->free(addr); }
  void copy_to_device(uint64_t dst, const void* src, size_t bytes) override {
    memory_->write(dst, src, bytes);
  }
  void copy_from_device(void* dst, uint64_t src, size_t bytes) override {
    memory_->read(src, dst, bytes);
  }

  std::unique_ptr<module> load(std::span<const uint8_t> code_object) override {
    auto m = std::make_unique<sim_module>();
    m->memory = memory_;
    m->owner = this;
    m->code = sim::load_code_object(code_object);
    // Map the whole image so pc-relative data (s_getpc_b64 + offset) is readable. 4 KiB
    // alignment keeps the segments' own alignment.
    m->image_addr = memory_->alloc(std::max<uint64_t>(m->code.image_size, 4), 4096);
    const std::vector<uint8_t> image = m->code.image_at(m->image_addr);
    if (!image.empty()) memory_->write(m->image_addr, image.data(), image.size());
    for (auto& k : m->code.kernels) k.image.code_base = m->image_addr;
    return m;
  }

  launch_report launch(module& mod, std::string_view kernel, dim3 grid_blocks, dim3 block,
                       const kernel_args& args, const launch_options& opts) override {
    auto* m = dynamic_cast<sim_module*>(&mod);
    if (!m || m->owner != this) throw error("launch: the module was not loaded by this device");
    const sim::KernelInfo& k = m->code.kernel(kernel);
    sim::check_launch(k, grid_blocks, block, opts.dynamic_lds);
    sim::DispatchParams p;
    p.grid[0] = grid_blocks.x;
    p.grid[1] = grid_blocks.y;
    p.grid[2] = grid_blocks.z;
    p.block[0] = block.x;
    p.block[1] = block.y;
    p.block[2] = block.z;
    p.dynamic_lds = opts.dynamic_lds;
    p.kernarg = sim::build_kernarg(k, grid_blocks, block, args, opts.dynamic_lds, sim::kernarg_layout::full);
    p.seed = opts.seed;
    p.trace = opts.trace;
    p.instruction_budget = opts.instruction_budget;
    p.threads = opts.threads;
    if (opts.profile) return sim::timing::run_profiled(k, p, *memory_, opts.check, *opts.profile);
    if (!opts.check) return sim::run_dispatch(k.image, p, *memory_, nullptr);
    sim::Checker checker;
    rt::launch_report report = sim::run_dispatch(k.image, p, *memory_, &checker);
    report.diagnostics = checker.diagnostics();
    return report;
  }

 private:
  std::shared_ptr<sim::Memory> memory_ = std::make_shared<sim::Memory>();
};

// ---------------------------------------------------------------- the HIP backend
#if HIPASM_SIM_HAVE_HIP

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
};

class hip_device final : public device {
 public:
  // nullptr when there is no usable device (no driver, no GPU): tests skip.
  static std::unique_ptr<device> open() {
    if (hipInit(0) != hipSuccess) return nullptr;
    int n = 0;
    if (hipGetDeviceCount(&n) != hipSuccess || n <= 0) return nullptr;
    if (hipSetDevice(0) != hipSuccess) return nullptr;
    return std::make_unique<hip_device>();
  }

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
    m->code = sim::load_code_object(code_object);
    hip_check(hipModuleLoadData(&m->handle, code_object.data()), "hipModuleLoadData");
    return m;
  }

  launch_report launch(module& mod, std::string_view kernel, dim3 grid_blocks, dim3 block,
                       const kernel_args& args, const launch_options& opts) override {
    auto* m = dynamic_cast<hip_module*>(&mod);
    if (!m || m->owner != this) throw error("launch: the module was not loaded by this device");
    if (opts.profile) throw error("launch: timing mode (launch_options::profile) needs the sim backend");
    const sim::KernelInfo& k = m->code.kernel(kernel);
    sim::check_launch(k, grid_blocks, block, opts.dynamic_lds);
    // The runtime fills the hidden arguments itself; it takes the explicit ones packed at
    // their metadata offsets.
    std::vector<uint8_t> packed =
        sim::build_kernarg(k, grid_blocks, block, args, opts.dynamic_lds, sim::kernarg_layout::explicit_only);
    size_t size = packed.size();
    hipFunction_t f = nullptr;
    hip_check(hipModuleGetFunction(&f, m->handle, k.name.c_str()), "hipModuleGetFunction");
    void* config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, packed.data(), HIP_LAUNCH_PARAM_BUFFER_SIZE,
                      &size, HIP_LAUNCH_PARAM_END};
    hip_check(hipModuleLaunchKernel(f, grid_blocks.x, grid_blocks.y, grid_blocks.z, block.x, block.y,
                                    block.z, opts.dynamic_lds, nullptr, nullptr, config),
              "hipModuleLaunchKernel");
    hip_check(hipDeviceSynchronize(), "hipDeviceSynchronize");
    return {};  // hardware has no checker and no instruction counters
  }
};

#endif  // HIPASM_SIM_HAVE_HIP

}  // namespace detail

std::unique_ptr<device> device::open(backend b) {
  if (b == backend::sim) return std::make_unique<detail::sim_device>();
#if HIPASM_SIM_HAVE_HIP
  return detail::hip_device::open();
#else
  return nullptr;  // built without libamdhip64: no HIP device, tests skip
#endif
}

}  // namespace hipasm::rt
