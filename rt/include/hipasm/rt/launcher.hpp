// hipasm's host runtime: one launcher interface, two backends: the CPU simulator (default) and
// real HIP (hipModuleLoadData/hipModuleLaunchKernel through libamdhip64). HIPASM_BACKEND=sim|hip
// selects it, so the same Catch2 tests run here and on an MI300. The library hipasm::rt
// (rt/src) implements it; this header needs nothing of the simulator's (the kernel library's
// launch functions include it), and the timing mode's report type is declared only: include
// <hipasm/rt/profile.hpp> to read a profile.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hipasm::rt {

// The sim backend's timing-mode report (launch_report::profile): the simulator's timing model's,
// defined by <hipasm/rt/profile.hpp> (docs/timing-model.md).
struct profile;

// Every fatal problem (bad ELF, unknown kernel/instruction, out-of-bounds access,
// instruction budget exceeded, HIP error) is thrown as this, with a one-line message.
struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class backend { sim, hip };
backend backend_from_env();  // HIPASM_BACKEND, default sim; bad value throws

struct dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// Typed kernel arguments, in the kernel's explicit-argument order. The launcher checks
// count and sizes against the code object's metadata and fills the hidden arguments.
class kernel_args {
 public:
  template <class T>
  kernel_args& add(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    entries_.push_back({bytes_.size(), sizeof(T)});
    bytes_.resize(bytes_.size() + sizeof(T));
    std::memcpy(bytes_.data() + entries_.back().offset, &v, sizeof(T));
    return *this;
  }
  // An argument given as its bytes (a struct, or a caller that packs by the metadata's sizes).
  kernel_args& add_bytes(const void* p, size_t size) {
    entries_.push_back({bytes_.size(), size});
    bytes_.resize(bytes_.size() + size);
    if (size) std::memcpy(bytes_.data() + entries_.back().offset, p, size);
    return *this;
  }
  struct entry {
    size_t offset, size;
  };
  const std::vector<entry>& entries() const { return entries_; }
  const uint8_t* data(size_t i) const { return bytes_.data() + entries_[i].offset; }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<entry> entries_;
};

// Timing mode (sim backend), launch_options::profile: the device whose run time the simulator's
// timing model predicts, and how (docs/timing-model.md).
struct profile_options {
  std::string device = "mi300x";  // mi300x | mi308x | mi325x (gfx942), mi355x | mi350x (gfx950): profile_devices()
  double clock_mhz = 0;           // 0: estimated from the kernel's MFMA density (timing-model.md)
  bool keep_events = false;       // record every instruction's slice (trace, timeline)
  std::string asm_source;         // optional .s of the kernel: hot spots show its "; file:line"
  // 0: the whole grid. N: run only the workgroups N CUs of one XCD would get (the first
  // ceil(groups * N / CUs)) on an N-CU slice with HBM bandwidth and L2 apportioned, and
  // extrapolate rates to the device (outputs then cover only those workgroups).
  uint32_t sample_cus = 0;
};

struct launch_options {
  uint32_t dynamic_lds = 0;
  uint64_t seed = 0;                   // 0: deterministic order; else random wave interleaving
  bool trace = false;                  // print each instruction and the registers it wrote
  uint64_t instruction_budget = 0;     // 0: backend default; exceeded = error (a hang)
  unsigned threads = 0;                // 0: all cores (sim); results identical to one thread
  bool check = true;                   // sim: run the checker (pending results, hazards, LDS
                                       // races); off only to measure raw simulation speed
  bool check_undefined = true;         // sim: the checker also tracks which register bits and LDS
                                       // bytes hold defined data and reports undefined data used
                                       // as an address, stored, branched on or put in EXEC
                                       // (rules undef-addr, undef-store, undef-branch, undef-exec)
  // sim: checker rules whose findings are warnings, not errors (for code that breaks a rule
  // knowingly, such as AMD's production kernels): a rule tag as the findings print it
  // ("pending-read", "hazard valu-sgpr-valu"), a hazard id alone ("valu-sgpr-valu"), or "all".
  // An unknown name throws. Default: none (strict, as hipasm's own kernels are checked).
  std::vector<std::string> allow;
  uint32_t kernarg_size = 0;           // bytes of kernarg segment at least (0: the metadata's
                                       // .kernarg_segment_size); bytes past the metadata's are
                                       // zero, as when a host passes a longer argument struct
  const profile_options* profile = nullptr;  // sim: also predict the run time on an MI300-class
                                             // device (launch_report::profile); same results
};

// One checker rule broken at one instruction (sim), over the whole launch.
struct checker_finding {
  uint64_t pc = 0;
  std::string rule;         // "pending-read", "hazard mfma-read", ...
  std::string instruction;  // the instruction text
  std::string message;      // the diagnostic line of the first occurrence
  uint64_t count = 0;       // wave-instructions that broke the rule at this pc
  uint32_t first_workgroup = 0, first_wave = 0;  // linear workgroup id, wave in the group
  bool allowed = false;     // the rule is in launch_options::allow: a warning
  std::string source;       // "file.cpp:12" from the module's asm listing, when it has one
};

// What the checker found; empty when the kernel is clean. Fatal errors throw instead. A run
// with findings always finishes; only `diagnostics` (the rules not allowed) are errors.
struct launch_report {
  std::vector<std::string> diagnostics;  // errors: "0x1a4: v_add_u32 v1, v2, v3: [rule] ..."
  std::vector<std::string> warnings;     // findings of allowed rules, same format
  std::vector<checker_finding> findings; // all findings, by (pc, rule), with counts
  uint64_t instructions = 0;             // wave-instructions executed
  uint64_t lane_operations = 0;
  // (qualified: a member named after the type it holds changes the name's meaning in the class,
  // which GCC rejects)
  std::shared_ptr<const hipasm::rt::profile> profile;  // with launch_options::profile (sim backend)
};

// A later dispatch's report appended to `rep`, for a launch function that runs several kernels
// and returns one report: diagnostics, warnings, findings and counters added; when both carry a
// profile, the predicted times added and, with `work`, the operations and HBM bytes too, with
// the rates recomputed and the busy fractions the time-weighted means (the rest of the profile,
// hot spots and counters, stays the first dispatch's).
void append_report(launch_report& rep, const launch_report& more, bool work = true);

// The findings grouped by rule, then pc: per rule a line "<rule> (error|warning): N
// instruction(s), M occurrence(s)", then per pc "  0x<pc>  <count>x  first workgroup W wave V
// <instruction>". Empty when there are no findings.
std::string checker_summary(const launch_report& report);

class module {
 public:
  virtual ~module() = default;
  virtual std::vector<std::string> kernel_names() const = 0;
  // The code object's target ("gfx942", "gfx950"): what its kernels were built for, which a
  // launcher choosing between designs of different targets asks (a device opened without a GPU
  // name runs a plain code object of either target).
  virtual std::string target() const = 0;
  // sim: asm listings of this code object (hipasm_add_code_object's <target>.s, or
  // <target>.<source>.s for several sources) whose "; file:line" comments the checker's
  // findings then name. device::load_file fills it with the listings beside the file; a
  // listing that does not match the code is ignored.
  std::vector<std::string> asm_listings;
};

class device {
 public:
  virtual ~device() = default;
  // Opens the backend. For hip with no device present, returns nullptr (tests SKIP). sim: no GPU
  // named: a plain code object runs as its target says, a fat binary's gfx942 entry is taken.
  static std::unique_ptr<device> open(backend b = backend_from_env());
  // sim: the simulated GPU `gpu` (profile_devices(): "mi300x", ..., "mi355x"), whose target
  // picks a fat binary's code object on load; a plain code object for another target is
  // refused. hip: the GPU decides; `gpu` is ignored. An unknown name throws.
  static std::unique_ptr<device> open(backend b, std::string_view gpu);

  // The target whose code object load() takes from a fat binary (an offload bundle):
  // "gfx942" or "gfx950" (sim: the GPU's; hip: the device's gcnArchName, features dropped).
  virtual std::string target() const = 0;
  // The GPU's compute units (a launcher's split or grid choice): sim, the named GPU's (unnamed:
  // the target's first, MI300X or MI355X); hip, the device's properties (the target's first
  // GPU's where they are missing).
  virtual uint32_t compute_units() const = 0;

  virtual uint64_t alloc(size_t bytes) = 0;  // a device address
  virtual void free(uint64_t addr) = 0;
  virtual void copy_to_device(uint64_t dst, const void* src, size_t bytes) = 0;
  virtual void copy_from_device(void* dst, uint64_t src, size_t bytes) = 0;

  // A code object, or a fat binary (clang offload bundle) holding one for target(). A code
  // object for another target than a named GPU's (or the HIP device's) throws, naming both.
  virtual std::unique_ptr<module> load(std::span<const uint8_t> code_object) = 0;
  std::unique_ptr<module> load_file(const std::string& path);

  virtual launch_report launch(module& m, std::string_view kernel, dim3 grid_blocks, dim3 block,
                               const kernel_args& args, const launch_options& opts = {}) = 0;
};

// One device's kernel of a multi-device launch (node::launch).
struct device_launch {
  module* mod = nullptr;  // loaded by the node's device of the same index
  std::string kernel;
  dim3 grid, block;
  kernel_args args;
};

// Several GPUs of one kind, each with its own memory, whose kernels reach each other's memory:
// one node of 2, 4 or 8 GPUs (MI300X, MI355X: every GPU linked to each peer by xGMI). The sim
// backend runs all devices' kernels in one simulation (docs/sim.md, "Several devices").
class node {
 public:
  virtual ~node() = default;
  // sim: `devices` (1..8) simulated GPUs `gpu` (profile_devices()). hip: not available yet
  // (nullptr, as device::open without a GPU).
  static std::unique_ptr<node> open(backend b, std::string_view gpu, unsigned devices);

  virtual unsigned size() const = 0;
  virtual device& at(unsigned i) = 0;  // device i: alloc, copies, load as a device
  // Device `user`'s address of the allocation starting at `addr` on device `owner`, through which
  // kernels on `user` load, store and run atomics on the owner's bytes (the model of
  // hipIpcGetMemHandle + hipIpcOpenMemHandle: a new address). at(user).free() unmaps it.
  virtual uint64_t map_peer(unsigned user, unsigned owner, uint64_t addr) = 0;
  // One kernel on each device (launches[i] on device i; size() of them), run concurrently: the
  // waves of all devices interleave (launch_options::seed varies the order), so a kernel may
  // wait for flags another device's kernel writes. The checker also reports reads of another
  // device's writes that the memory model does not make visible (rules peer-visibility,
  // peer-race). A report per device. launch_options::profile is not supported yet.
  virtual std::vector<launch_report> launch(std::span<const device_launch> launches,
                                            const launch_options& opts = {}) = 0;
};

// Convenience: a typed device buffer that frees itself.
template <class T>
class buffer {
 public:
  buffer(device& d, size_t count) : dev_(&d), count_(count), addr_(d.alloc(count * sizeof(T))) {}
  buffer(device& d, const std::vector<T>& init) : buffer(d, init.size()) { upload(init); }
  ~buffer() { if (dev_) dev_->free(addr_); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  void upload(const std::vector<T>& v) { dev_->copy_to_device(addr_, v.data(), v.size() * sizeof(T)); }
  std::vector<T> download() const {
    std::vector<T> v(count_);
    dev_->copy_from_device(v.data(), addr_, count_ * sizeof(T));
    return v;
  }
  uint64_t addr() const { return addr_; }
  T* ptr() const { return reinterpret_cast<T*>(addr_); }  // for kernel_args::add
  size_t size() const { return count_; }

 private:
  device* dev_;
  size_t count_;
  uint64_t addr_;
};

}  // namespace hipasm::rt
