// hipasm-sim: inspect and run gfx942 and gfx950 code objects (or fat binaries of both) on the CPU.
//
//   hipasm-sim info CODE_OBJECT
//   hipasm-sim run CODE_OBJECT KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--device D] [--lds BYTES]
//              [--seed N] [--threads N] [--budget N] [--kernarg-size BYTES] [--trace]
//              [--no-check] --arg SPEC ...
//   hipasm-sim profile CODE_OBJECT KERNEL (run's options) [--device D] [--clock MHZ] [--json]
//              [--trace-out FILE] [--timeline WAVE] [--asm FILE.s] [--sample N]
//
// Every failure is one line on stderr, "hipasm-sim: error: ...", and a non-zero exit: the
// tool is fed hand-edited and broken code objects, so it never crashes or dumps a trace.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bundle.hpp"
#include "decode.hpp"
#include "elf.hpp"
#include "error.hpp"
#include "hipasm/rt/launcher.hpp"
#include "hipasm/rt/profile.hpp"
#include "timing/device.hpp"

namespace {

using hipasm::rt::error;
namespace sim = hipasm::sim;

constexpr int kExitError = 1;      // bad input, load or run failure
constexpr int kExitUsage = 2;      // bad command line
constexpr int kExitFindings = 3;   // the kernel ran, the checker reported problems
constexpr uint32_t kMaxKernargSize = 1u << 20;  // the loader's bound on .kernarg_segment_size

struct usage_error : error {
  using error::error;
};

const char* const kHelp =
    "usage: hipasm-sim info [--decode] CODE_OBJECT\n"
    "       hipasm-sim run CODE_OBJECT KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [options] --arg SPEC ...\n"
    "       hipasm-sim node PROGRAM [--seed N] [--budget N] [--no-check] [--no-undef] [--allow RULE] [--warn-only]\n"
    "\n"
    "Runs gfx942 and gfx950 code objects (as clang-22 builds them) in the hipasm CPU simulator and\n"
    "reports missing s_nop / s_waitcnt, LDS races and out-of-bounds accesses. CODE_OBJECT may be a\n"
    "fat binary (a clang offload bundle, `--offload-arch=gfx942 --offload-arch=gfx950`): run and\n"
    "profile take the code object of the --device's target from it.\n"
    "\n"
    "info   list the kernels with their descriptor fields and arguments (a fat binary: its\n"
    "       entries, then each code object's kernels)\n"
    "  --decode            also decode every kernel and list each instruction reachable from its\n"
    "                      entry that is an unknown encoding or has no semantics (exit 1 if any)\n"
    "run    launch KERNEL once\n"
    "  --device D          the simulated GPU (profile's --device names them): its target (gfx942\n"
    "                      or gfx950) picks a fat binary's code object, and a code object for\n"
    "                      another target is refused. Without it a code object runs on its own\n"
    "                      target, a fat binary's gfx942 one on gfx942\n"
    "  --grid X[,Y[,Z]]    number of workgroups per dimension\n"
    "  --block X[,Y[,Z]]   work-items per workgroup\n"
    "  --lds BYTES         dynamic LDS per workgroup (default 0)\n"
    "  --seed N            random wave interleaving with seed N (default 0: fixed order)\n"
    "  --threads N         worker threads (default 0: all cores; results do not depend on it)\n"
    "  --budget N          maximum wave-instructions before the run counts as a hang\n"
    "  --kernarg-size BYTES  a kernarg segment of at least BYTES (default: the metadata's\n"
    "                      .kernarg_segment_size); bytes past the metadata's segment are zero,\n"
    "                      as when a host passes a longer argument struct than it describes\n"
    "  --trace             print every executed instruction and the registers it wrote\n"
    "  --asm FILE.s        the kernel's asm listing: findings name its '; file:line' comments\n"
    "                      (default: CODE_OBJECT's name with .s, or .<source>.s, beside it)\n"
    "  --no-check          skip the checker (to measure raw simulation speed)\n"
    "  --no-undef          checker without the definedness rules (undef-addr, undef-store,\n"
    "                      undef-branch, undef-exec: undefined register or LDS data used)\n"
    "  --allow RULE        report checker RULE (e.g. hazard valu-sgpr-valu, or just valu-sgpr-valu;\n"
    "                      pending-read, lds-race, ...) as a warning, not an error; repeatable\n"
    "  --warn-only         report every checker rule as a warning (--allow all)\n"
    "  --arg SPEC          the kernel's explicit arguments, in order; SPEC is one of\n"
    "      in=FILE         a buffer initialised from the raw bytes of FILE\n"
    "      out=FILE:BYTES  a zeroed buffer of BYTES bytes, written to FILE after the run\n"
    "      inout=IN:OUT    a buffer initialised from IN, written to OUT after the run\n"
    "      null            a null pointer (device address 0) for a buffer argument\n"
    "      i32=N u32=N i64=N u64=N f32=X   a scalar value (also i8, u8, i16, u16, f64;\n"
    "                      a small struct argument takes the integer of its size)\n"
    "\n"
    "node   run a program of several GPUs in one simulation (docs/sim.md, \"Several devices\"):\n"
    "       one kernel a device, all together; PROGRAM is a text file of lines (# comments):\n"
    "      node GPU N                        N (1..8) simulated GPUs GPU (mi300x, mi355x, ...)\n"
    "      buffer NAME DEVICE in=FILE|zero=BYTES [out=FILE]\n"
    "                                        a buffer of DEVICE from FILE's bytes (or zeroed),\n"
    "                                        written to FILE after the run with out=\n"
    "      launch DEVICE CODE_OBJECT KERNEL GRID BLOCK ARG...\n"
    "                                        GRID, BLOCK as X[,Y[,Z]]; ARG: a buffer NAME (another\n"
    "                                        device's is mapped into DEVICE, as hipIpcOpenMemHandle),\n"
    "                                        null, or a scalar KIND=VALUE as --arg takes it\n"
    "       Files are relative to PROGRAM's folder. Every device needs one launch. The options are\n"
    "       run's; the findings and the summary line are per device (\"device D: ...\").\n"
    "\n"
    "profile  run KERNEL as `run` does (same options, same outputs, checker included) and predict\n"
    "         its run time on an AMD Instinct GPU (docs/timing-model.md):\n"
    "  --device D          mi300x, mi308x or mi325x (gfx942 code objects); mi355x or mi350x\n"
    "                      (gfx950 code objects); without it mi300x or mi355x, the code object's\n"
    "                      target's (a fat binary: its gfx942 entry on mi300x)\n"
    "  --clock MHZ         shader clock of the prediction (default: estimated from the kernel's\n"
    "                      matrix-core density, between the device's peak and sustained clocks)\n"
    "  --json              the report as one JSON object on stdout\n"
    "  --trace-out FILE    Chrome trace-event JSON of every wave's schedule (open in ui.perfetto.dev)\n"
    "  --timeline WAVE     print one wave's schedule (WAVE = workgroup * waves per group + wave)\n"
    "  --asm FILE.s        the kernel's asm listing: hot spots show its '; file:line' comments\n"
    "  --sample N          run only the workgroups N CUs would get, on an N-CU slice, and\n"
    "                      extrapolate (faster; output buffers then cover only those workgroups)\n"
    "\n"
    "Exit status: 0 success, 1 error, 2 bad command line, 3 the checker reported problems not\n"
    "allowed (printed on stdout, one per line, warnings prefixed \"warning: \", then a summary by\n"
    "rule and pc). Errors are one line on stderr.\n";

std::string dims_str(const hipasm::rt::dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

// Whole-string integer parse with range check; accepts 0x hex for unsigned values.
template <class T>
T parse_int(std::string_view s, const std::string& what) {
  int base = 10;
  std::string_view digits = s;
  if constexpr (std::is_unsigned_v<T>) {
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
      digits.remove_prefix(2);
      base = 16;
    }
  }
  T v{};
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (digits.empty() || ec == std::errc::result_out_of_range)
    throw usage_error(what + ": '" + sim::printable(s) + "' is out of range");
  if (ec != std::errc() || end != digits.data() + digits.size())
    throw usage_error(what + ": '" + sim::printable(s) + "' is not an integer");
  return v;
}

// A float or double; hex floats, inf and nan as strtod spells them.
double parse_double(std::string_view s, const std::string& what, bool as_float) {
  const std::string str(s);
  if (str.empty() || std::isspace(static_cast<unsigned char>(str[0])))
    throw usage_error(what + ": '" + sim::printable(s) + "' is not a number");
  char* end = nullptr;
  errno = 0;
  const double v = as_float ? std::strtof(str.c_str(), &end) : std::strtod(str.c_str(), &end);
  if (end != str.c_str() + str.size())
    throw usage_error(what + ": '" + sim::printable(s) + "' is not a number");
  if (errno == ERANGE && std::abs(v) > 1)  // underflow to a denormal or zero is fine
    throw usage_error(what + ": '" + sim::printable(s) + "' is out of range");
  return v;
}

hipasm::rt::dim3 parse_dims(std::string_view s, const std::string& what) {
  uint32_t v[3] = {1, 1, 1};
  size_t n = 0, start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    if (n == 3) throw usage_error(what + ": '" + sim::printable(s) + "' has more than 3 dimensions");
    v[n++] = parse_int<uint32_t>(s.substr(start, comma == std::string_view::npos ? s.npos : comma - start), what);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  for (size_t i = 0; i < n; ++i)
    if (v[i] == 0) throw usage_error(what + ": '" + sim::printable(s) + "' has a zero dimension");
  return {v[0], v[1], v[2]};
}

// An output file, opened before the run so an unwritable path fails before a long simulation.
struct output_file {
  std::string path;
  std::FILE* f = nullptr;
  explicit output_file(std::string p) : path(std::move(p)) {
    f = std::fopen(path.c_str(), "wb");
    if (!f) throw error("cannot write " + sim::printable(path) + ": " + std::strerror(errno));
  }
  output_file(output_file&& o) noexcept : path(std::move(o.path)), f(std::exchange(o.f, nullptr)) {}
  ~output_file() {
    if (f) std::fclose(f);
  }
  void write(const std::vector<uint8_t>& bytes) {
    const size_t n = bytes.empty() ? 0 : std::fwrite(bytes.data(), 1, bytes.size(), f);
    const bool bad = n != bytes.size() || std::fclose(f) != 0;
    f = nullptr;
    if (bad) throw error("cannot write " + sim::printable(path) + ": " + std::strerror(errno));
  }
};

// ------------------------------------------------------------------------------- info

// info --decode: every reachable instruction the simulator cannot run, per kernel.
int print_unsupported(const sim::CodeObject& co) {
  size_t bad = 0;
  for (const auto& k : co.kernels) {
    sim::Program prog = sim::decode_program(k.image.code, k.image.code_vaddr, *k.image.target);
    for (auto& in : prog.insts)
      if (!in.mnemonic.empty()) in.exec = sim::Registry::get().find(in.mnemonic);
    size_t reached = 0;
    const auto list = sim::unsupported_reachable(prog, k.image.entry, &reached);
    std::printf("\ndecode %s: %zu reachable instructions, %zu unsupported\n", sim::printable(k.name).c_str(),
                reached, list.size());
    for (const sim::Inst* in : list)
      std::printf("  unsupported 0x%llx: %s: %s\n", (unsigned long long)in->pc, in->text.c_str(),
                  in->mnemonic.empty() ? "unknown encoding" : "no semantics");
    bad += list.size();
  }
  if (bad) throw error(std::to_string(bad) + " reachable instruction" + (bad == 1 ? "" : "s") +
                       " the simulator cannot run (listed above)");
  return 0;
}

std::string yes_no(bool b) { return b ? "1" : "0"; }

void print_info(const std::string& path, const sim::CodeObject& co) {
  std::printf("%s: target %s%s, code object ABI version %u, e_flags 0x%x, %zu kernel%s\n",
              sim::printable(path).c_str(), sim::printable(co.target).c_str(),
              co.target_from_e_flags ? " (from e_flags; no amdhsa.target)" : "", co.abi_version,
              co.e_flags, co.kernels.size(), co.kernels.size() == 1 ? "" : "s");
  for (const auto& k : co.kernels) {
    const auto& d = k.kd;
    std::printf("\nkernel %s\n", sim::printable(k.name).c_str());
    std::printf("  symbol %s at 0x%llx, entry 0x%llx (code_entry_byte_offset %lld)\n",
                sim::printable(k.symbol).c_str(), (unsigned long long)k.descriptor_vaddr,
                (unsigned long long)(k.descriptor_vaddr + uint64_t(d.kernel_code_entry_byte_offset)),
                (long long)d.kernel_code_entry_byte_offset);
    std::printf("  kernarg_size %llu (align %llu)%s, group_segment_fixed_size %u, private_segment_fixed_size %u\n",
                (unsigned long long)k.kernarg_segment_size, (unsigned long long)k.kernarg_segment_align,
                d.kernarg_size ? "" : " from the metadata (descriptor kernarg_size 0: unspecified)",
                d.group_segment_fixed_size, d.private_segment_fixed_size);
    if (d.kernarg_preload_length)
      std::printf("  kernarg preload: %u dwords from dword %u into s%u..s%u; execution starts at entry + 256 = 0x%llx\n",
                  d.kernarg_preload_length, d.kernarg_preload_offset, d.enabled_user_sgprs(),
                  d.enabled_user_sgprs() + d.kernarg_preload_length - 1, (unsigned long long)k.image.entry);
    std::printf("  vgpr_count %llu, agpr_count %llu, accum_offset %u, allocated vgprs %u (granule %u)\n",
                (unsigned long long)k.vgpr_count, (unsigned long long)k.agpr_count, d.accum_offset,
                d.allocated_vgprs(), d.granulated_workitem_vgpr_count);
    std::printf("  sgpr_count %llu, allocated sgprs %u (granule %u), spills: %llu sgpr %llu vgpr\n",
                (unsigned long long)k.sgpr_count, d.allocated_sgprs(),
                d.granulated_wavefront_sgpr_count, (unsigned long long)k.sgpr_spill_count,
                (unsigned long long)k.vgpr_spill_count);
    std::printf("  user_sgpr_count %u: private_segment_buffer %s dispatch_ptr %s queue_ptr %s "
                "kernarg_segment_ptr %s dispatch_id %s flat_scratch_init %s private_segment_size %s\n",
                d.user_sgpr_count, yes_no(d.private_segment_buffer).c_str(), yes_no(d.dispatch_ptr).c_str(),
                yes_no(d.queue_ptr).c_str(), yes_no(d.kernarg_segment_ptr).c_str(),
                yes_no(d.dispatch_id).c_str(), yes_no(d.flat_scratch_init).c_str(),
                yes_no(d.private_segment_size).c_str());
    std::printf("  workgroup_id x %s y %s z %s, workgroup_info %s, private_segment %s, vgpr_workitem_id %u\n",
                yes_no(d.workgroup_id_x).c_str(), yes_no(d.workgroup_id_y).c_str(),
                yes_no(d.workgroup_id_z).c_str(), yes_no(d.workgroup_info).c_str(),
                yes_no(d.enable_private_segment).c_str(), d.vgpr_workitem_id);
    std::printf("  float_round_mode_32 %u, float_round_mode_16_64 %u, float_denorm_mode_32 %u, "
                "float_denorm_mode_16_64 %u, ieee_mode %s, dx10_clamp %s, fp16_overflow %s\n",
                d.float_round_mode_32, d.float_round_mode_16_64, d.float_denorm_mode_32,
                d.float_denorm_mode_16_64, yes_no(d.ieee_mode).c_str(), yes_no(d.dx10_clamp).c_str(),
                yes_no(d.fp16_overflow).c_str());
    std::printf("  wavefront_size %llu, max_flat_workgroup_size %llu, uses_dynamic_stack %s, tg_split %s\n",
                (unsigned long long)k.wavefront_size, (unsigned long long)k.max_flat_workgroup_size,
                yes_no(d.uses_dynamic_stack).c_str(), yes_no(d.tg_split).c_str());
    std::printf("  rsrc1 0x%08x rsrc2 0x%08x rsrc3 0x%08x kernel_code_properties 0x%04x\n",
                d.compute_pgm_rsrc1, d.compute_pgm_rsrc2, d.compute_pgm_rsrc3, d.kernel_code_properties);
    std::printf("  arguments (%zu explicit):\n", k.explicit_arg_count());
    size_t n = 0;
    for (const auto& a : k.args) {
      std::string idx = a.hidden() ? "-" : std::to_string(n++);
      std::string extra;
      if (!a.name.empty()) extra += " " + sim::printable(a.name);
      if (!a.type_name.empty()) extra += " '" + sim::printable(a.type_name) + "'";
      if (!a.address_space.empty()) extra += " (" + sim::printable(a.address_space) + ")";
      std::printf("    %-2s offset %4u size %2u %s%s\n", idx.c_str(), a.offset, a.size,
                  sim::printable(a.value_kind).c_str(), extra.c_str());
    }
  }
}

// -------------------------------------------------------------------------------- run

struct buffer_spec {
  enum class kind { in, out, inout, null } k;
  std::string in_path, out_path;
  uint64_t bytes = 0;  // out
};

struct arg_spec {
  std::string text;
  bool is_buffer = false;
  buffer_spec buf;
  std::vector<uint8_t> value;  // scalar bytes
};

arg_spec parse_arg(const std::string& spec) {
  if (spec == "null") {  // a buffer argument the kernel must not dereference (an optional pointer)
    arg_spec a;
    a.text = spec;
    a.is_buffer = true;
    a.buf = {buffer_spec::kind::null, "", "", 0};
    return a;
  }
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0)
    throw usage_error("--arg '" + sim::printable(spec) + "': expected null or KIND=VALUE (in=, out=, inout=, i32=, u32=, i64=, u64=, f32=)");
  const std::string kind = spec.substr(0, eq), val = spec.substr(eq + 1);
  const std::string what = "--arg " + sim::printable(spec);
  arg_spec a;
  a.text = spec;
  auto scalar = [&](auto v) {
    a.value.resize(sizeof v);
    std::memcpy(a.value.data(), &v, sizeof v);
  };
  if (kind == "in") {
    if (val.empty()) throw usage_error(what + ": missing file name");
    a.is_buffer = true;
    a.buf = {buffer_spec::kind::in, val, "", 0};
  } else if (kind == "out") {
    const size_t colon = val.rfind(':');
    if (colon == std::string::npos || colon == 0)
      throw usage_error(what + ": expected out=FILE:BYTES");
    a.is_buffer = true;
    a.buf = {buffer_spec::kind::out, "", val.substr(0, colon), 0};
    a.buf.bytes = parse_int<uint64_t>(std::string_view(val).substr(colon + 1), what + " (BYTES)");
    if (a.buf.bytes > (uint64_t{1} << 32)) throw usage_error(what + ": more than 4 GiB");
  } else if (kind == "inout") {
    const size_t colon = val.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == val.size())
      throw usage_error(what + ": expected inout=IN:OUT");
    a.is_buffer = true;
    a.buf = {buffer_spec::kind::inout, val.substr(0, colon), val.substr(colon + 1), 0};
  } else if (kind == "i32") {
    scalar(parse_int<int32_t>(val, what));
  } else if (kind == "u32") {
    scalar(parse_int<uint32_t>(val, what));
  } else if (kind == "i64") {
    scalar(parse_int<int64_t>(val, what));
  } else if (kind == "u64") {
    scalar(parse_int<uint64_t>(val, what));
  } else if (kind == "f32") {
    scalar(static_cast<float>(parse_double(val, what, true)));
  } else if (kind == "i8") {
    scalar(parse_int<int8_t>(val, what));
  } else if (kind == "u8") {
    scalar(parse_int<uint8_t>(val, what));
  } else if (kind == "i16") {
    scalar(parse_int<int16_t>(val, what));
  } else if (kind == "u16") {
    scalar(parse_int<uint16_t>(val, what));
  } else if (kind == "f64") {
    scalar(parse_double(val, what, false));
  } else {
    throw usage_error(what + ": unknown kind '" + sim::printable(kind) +
                      "' (in, out, inout, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64)");
  }
  return a;
}

// One word of a command line: "--opt=value" is split into the option and its inline value;
// take() returns that value or consumes the next word.
struct option_word {
  const std::vector<std::string>& argv;
  size_t& i;
  std::string opt, value;
  bool is_opt = false, inline_value = false;
  option_word(const std::vector<std::string>& words, size_t& index) : argv(words), i(index), opt(words[index]) {
    is_opt = opt.size() > 2 && opt.starts_with("--");
    if (!is_opt) return;
    if (const size_t eq = opt.find('='); eq != std::string::npos) {
      value = opt.substr(eq + 1);
      opt = opt.substr(0, eq);
      inline_value = true;
    }
  }
  std::string take() {
    if (inline_value) return value;
    if (i + 1 >= argv.size()) throw usage_error(opt + " needs a value");
    return argv[++i];
  }
};

// The options run and node share (the checker, the seed, the budget): true when `word` was one.
bool parse_common_option(option_word& word, hipasm::rt::launch_options& lo) {
  const std::string& opt = word.opt;
  auto flag = [&] {
    if (word.inline_value) throw usage_error(opt + " takes no value");
  };
  if (opt == "--seed") lo.seed = parse_int<uint64_t>(word.take(), "--seed");
  else if (opt == "--budget") lo.instruction_budget = parse_int<uint64_t>(word.take(), "--budget");
  else if (opt == "--no-check") flag(), lo.check = false;
  else if (opt == "--no-undef") flag(), lo.check_undefined = false;
  else if (opt == "--allow") lo.allow.push_back(word.take());
  else if (opt == "--warn-only") flag(), lo.allow.push_back("all");
  else return false;
  return true;
}

struct run_options {
  std::string code_object, kernel;
  bool have_grid = false, have_block = false;
  hipasm::rt::dim3 grid, block;
  hipasm::rt::launch_options launch;
  std::vector<arg_spec> args;
  std::string asm_listing;  // --asm: the listing whose "; file:line" comments name the findings
  std::string device;       // --device ("": not given; a fat binary then runs on mi300x)
};

// --device's value, checked against the timing model's devices.
std::string parse_device(const std::string& name) {
  const auto names = hipasm::rt::profile_devices();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw usage_error("--device: '" + sim::printable(name) + "' is not one of " + list);
  }
  return name;
}

run_options parse_run(const std::vector<std::string>& argv) {
  run_options o;
  std::vector<std::string> positional;
  for (size_t i = 0; i < argv.size(); ++i) {
    option_word word(argv, i);
    const std::string& opt = word.opt;
    const bool is_opt = word.is_opt, inline_value = word.inline_value;
    auto take = [&] { return word.take(); };
    if (!is_opt) {
      if (opt.starts_with("-") && opt != "-")
        throw usage_error("unknown option '" + sim::printable(opt) + "' (see --help)");
      positional.push_back(opt);
    } else if (opt == "--grid") {
      o.grid = parse_dims(take(), "--grid");
      o.have_grid = true;
    } else if (opt == "--block") {
      o.block = parse_dims(take(), "--block");
      o.have_block = true;
    } else if (opt == "--device") {
      o.device = parse_device(take());
    } else if (parse_common_option(word, o.launch)) {
    } else if (opt == "--lds") {
      o.launch.dynamic_lds = parse_int<uint32_t>(take(), "--lds");
    } else if (opt == "--threads") {
      o.launch.threads = parse_int<unsigned>(take(), "--threads");
      if (o.launch.threads > 1024) throw usage_error("--threads: at most 1024");
    } else if (opt == "--trace") {
      if (inline_value) throw usage_error("--trace takes no value");
      o.launch.trace = true;
    } else if (opt == "--kernarg-size") {
      o.launch.kernarg_size = parse_int<uint32_t>(take(), "--kernarg-size");
      if (o.launch.kernarg_size > kMaxKernargSize)
        throw usage_error("--kernarg-size: at most " + std::to_string(kMaxKernargSize) + " bytes");
    } else if (opt == "--asm") {
      o.asm_listing = take();
      if (o.asm_listing.empty()) throw usage_error("--asm needs a file name");
    } else if (opt == "--arg") {
      o.args.push_back(parse_arg(take()));
    } else {
      throw usage_error("unknown option '" + sim::printable(opt) + "' (see --help)");
    }
  }
  if (positional.size() != 2)
    throw usage_error("run needs CODE_OBJECT and KERNEL, got " + std::to_string(positional.size()) +
                      " positional argument" + (positional.size() == 1 ? "" : "s"));
  o.code_object = positional[0];
  o.kernel = positional[1];
  if (!o.have_grid) throw usage_error("run needs --grid");
  if (!o.have_block) throw usage_error("run needs --block");
  return o;
}

struct profile_cli;
int report_profile(const profile_cli& p, const hipasm::rt::launch_report& report);

int run(const run_options& o, const profile_cli* prof = nullptr) {
  const std::vector<uint8_t> bytes = sim::read_file_bytes(o.code_object);
  // Without --device, a plain code object runs as its target says (a fat binary: its gfx942 entry);
  // profile then times it on that target's first GPU.
  auto dev = o.device.empty() ? hipasm::rt::device::open(hipasm::rt::backend::sim)
                              : hipasm::rt::device::open(hipasm::rt::backend::sim, o.device);
  const sim::CodeObject co = sim::load_code_object(sim::select_code_object(bytes, dev->target()));
  // A named device runs its own target's code only (as device::load refuses it), checked before
  // the arguments.
  if (!o.device.empty() && co.arch->name != dev->target())
    throw error(sim::timing::wrong_target_message(co.arch->name, *sim::timing::find_device(o.device)));
  const sim::KernelInfo& k = co.kernel(o.kernel);

  // Match the specs with the kernel's explicit arguments before touching any file.
  std::vector<const sim::KernelArgInfo*> explicit_args;
  for (const auto& a : k.args)
    if (!a.hidden()) explicit_args.push_back(&a);
  if (explicit_args.size() != o.args.size())
    throw error("kernel '" + sim::printable(k.name) + "' takes " + std::to_string(explicit_args.size()) +
                " argument" + (explicit_args.size() == 1 ? "" : "s") + ", " +
                std::to_string(o.args.size()) + " --arg given");
  for (size_t i = 0; i < explicit_args.size(); ++i) {
    const auto& a = *explicit_args[i];
    const auto& s = o.args[i];
    const std::string where = "argument " + std::to_string(i + 1) + " (" + sim::printable(a.value_kind) + ", " +
                              std::to_string(a.size) + " bytes) of '" + sim::printable(k.name) + "'";
    if (a.pointer() && !s.is_buffer)
      throw error(where + " is a buffer; '" + sim::printable(s.text) + "' is a scalar (use in=, out=, inout= or null)");
    if (!a.pointer() && s.is_buffer)
      throw error(where + " is a value; '" + sim::printable(s.text) + "' is a buffer");
    if (!a.pointer() && s.value.size() != a.size)
      throw error(where + ": '" + sim::printable(s.text) + "' is " + std::to_string(s.value.size()) + " bytes");
  }

  auto mod = dev->load_file(o.code_object);  // with the asm listings beside it
  if (!o.asm_listing.empty()) mod->asm_listings = {o.asm_listing};
  struct out_buffer {
    uint64_t addr;
    size_t size;
    output_file file;
  };
  std::vector<out_buffer> outputs;
  hipasm::rt::kernel_args args;
  for (const auto& s : o.args) {
    if (!s.is_buffer) {
      // kernel_args stores typed values; only the bytes matter.
      const auto add = [&](auto v) {
        std::memcpy(&v, s.value.data(), sizeof v);
        args.add(v);
      };
      switch (s.value.size()) {
        case 1: add(uint8_t{}); break;
        case 2: add(uint16_t{}); break;
        case 4: add(uint32_t{}); break;
        default: add(uint64_t{}); break;
      }
      continue;
    }
    if (s.buf.k == buffer_spec::kind::null) {
      args.add(uint64_t{0});
      continue;
    }
    std::vector<uint8_t> init;
    size_t size = s.buf.bytes;
    if (s.buf.k != buffer_spec::kind::out) {
      init = sim::read_file_bytes(s.buf.in_path);
      size = init.size();
    }
    const uint64_t addr = dev->alloc(size);
    if (init.empty()) {
      const std::vector<uint8_t> zeros(size, 0);
      if (size) dev->copy_to_device(addr, zeros.data(), size);
    } else {
      dev->copy_to_device(addr, init.data(), size);
    }
    if (s.buf.k != buffer_spec::kind::in) outputs.push_back({addr, size, output_file(s.buf.out_path)});
    args.add(addr);
  }

  const hipasm::rt::launch_report report = dev->launch(*mod, k.name, o.grid, o.block, args, o.launch);
  for (auto& out : outputs) {
    std::vector<uint8_t> data(out.size);
    if (out.size) dev->copy_from_device(data.data(), out.addr, out.size);
    out.file.write(data);
  }
  if (prof) return report_profile(*prof, report);
  for (const auto& d : report.diagnostics) std::printf("%s\n", d.c_str());
  for (const auto& d : report.warnings) std::printf("warning: %s\n", d.c_str());
  if (!report.findings.empty())
    std::printf("hipasm-sim: checker summary by rule and pc:\n%s", hipasm::rt::checker_summary(report).c_str());
  std::printf("hipasm-sim: %s grid %s block %s: %llu wave-instructions, %llu lane-operations, %zu checker finding%s",
              sim::printable(k.name).c_str(), dims_str(o.grid).c_str(), dims_str(o.block).c_str(),
              (unsigned long long)report.instructions, (unsigned long long)report.lane_operations,
              report.diagnostics.size(), report.diagnostics.size() == 1 ? "" : "s");
  if (!report.warnings.empty())
    std::printf(", %zu warning%s", report.warnings.size(), report.warnings.size() == 1 ? "" : "s");
  std::printf("\n");
  std::fflush(stdout);
  if (!report.diagnostics.empty()) {
    std::fprintf(stderr, "hipasm-sim: error: the checker reported %zu problem%s (listed on stdout)\n",
                 report.diagnostics.size(), report.diagnostics.size() == 1 ? "" : "s");
    return kExitFindings;
  }
  return 0;
}

// ------------------------------------------------------------------------------- node

// `hipasm-sim node PROGRAM`: several devices in one simulation, described by a small file.
int node_program(const std::vector<std::string>& argv) {
  hipasm::rt::launch_options lo;
  std::string program;
  for (size_t i = 0; i < argv.size(); ++i) {
    option_word word(argv, i);
    const std::string& opt = word.opt;
    if (!word.is_opt) {
      if (opt.starts_with("-") && opt != "-")
        throw usage_error("unknown option '" + sim::printable(opt) + "' for node (see --help)");
      if (!program.empty()) throw usage_error("node takes one PROGRAM, got '" + sim::printable(opt) + "' too");
      program = opt;
    } else if (!parse_common_option(word, lo)) {
      throw usage_error("unknown option '" + sim::printable(opt) + "' for node (see --help)");
    }
  }
  if (program.empty()) throw usage_error("node needs a PROGRAM file");
  std::ifstream in(program);
  if (!in) throw error("cannot read " + sim::printable(program) + ": " + std::strerror(errno));
  const std::filesystem::path dir = std::filesystem::path(program).parent_path();
  auto file = [&](const std::string& f) { return std::filesystem::path(f).is_absolute() ? f : (dir / f).string(); };

  struct buffer_def {
    unsigned device = 0;
    uint64_t addr = 0, bytes = 0;
    std::string out;
  };
  struct launch_def {
    std::string code_object, kernel;
    hipasm::rt::dim3 grid, block;
    std::vector<std::string> args;
    std::string where;
  };
  std::unique_ptr<hipasm::rt::node> node;
  std::map<std::string, buffer_def> buffers;
  std::map<std::pair<unsigned, std::string>, uint64_t> mapped;  // (device, buffer) -> address there
  std::vector<std::unique_ptr<launch_def>> launches;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    const std::string where = sim::printable(program) + ":" + std::to_string(n);
    auto device_of = [&](const std::string& s) {
      if (!node) throw error(where + ": a 'node GPU N' line must come first");
      const auto d = parse_int<uint32_t>(s, where + ": DEVICE");
      if (d >= node->size())
        throw error(where + ": device " + std::to_string(d) + " of a node of " + std::to_string(node->size()));
      return d;
    };
    if (w[0] == "node") {
      if (node) throw error(where + ": a second 'node' line");
      if (w.size() != 3) throw error(where + ": expected 'node GPU N'");
      node = hipasm::rt::node::open(hipasm::rt::backend::sim, w[1], parse_int<uint32_t>(w[2], where + ": N"));
      launches.resize(node->size());
    } else if (w[0] == "buffer") {
      if (w.size() != 4 && w.size() != 5) throw error(where + ": expected 'buffer NAME DEVICE in=FILE|zero=BYTES [out=FILE]'");
      const unsigned d = device_of(w[2]);
      if (buffers.count(w[1])) throw error(where + ": buffer '" + sim::printable(w[1]) + "' defined twice");
      buffer_def b;
      b.device = d;
      std::vector<uint8_t> init;
      if (w[3].starts_with("in=")) {
        init = sim::read_file_bytes(file(w[3].substr(3)));
        b.bytes = init.size();
      } else if (w[3].starts_with("zero=")) {
        b.bytes = parse_int<uint64_t>(w[3].substr(5), where + ": zero=BYTES");
        if (b.bytes > (uint64_t{1} << 32)) throw error(where + ": more than 4 GiB");
        init.assign(b.bytes, 0);
      } else {
        throw error(where + ": '" + sim::printable(w[3]) + "': expected in=FILE or zero=BYTES");
      }
      if (w.size() == 5) {
        if (!w[4].starts_with("out=") || w[4].size() == 4) throw error(where + ": '" + sim::printable(w[4]) + "': expected out=FILE");
        b.out = file(w[4].substr(4));
      }
      b.addr = node->at(d).alloc(b.bytes);
      if (b.bytes) node->at(d).copy_to_device(b.addr, init.data(), b.bytes);
      buffers[w[1]] = b;
    } else if (w[0] == "launch") {
      if (w.size() < 6) throw error(where + ": expected 'launch DEVICE CODE_OBJECT KERNEL GRID BLOCK ARG...'");
      const unsigned d = device_of(w[1]);
      if (launches[d]) throw error(where + ": device " + std::to_string(d) + " has a launch already (one a device)");
      auto l = std::make_unique<launch_def>();
      l->code_object = file(w[2]);
      l->kernel = w[3];
      l->grid = parse_dims(w[4], where + ": GRID");
      l->block = parse_dims(w[5], where + ": BLOCK");
      l->args.assign(w.begin() + 6, w.end());
      l->where = where;
      launches[d] = std::move(l);
    } else {
      throw error(where + ": unknown line '" + sim::printable(w[0]) + "' (node, buffer, launch)");
    }
  }
  if (!node) throw error(sim::printable(program) + ": no 'node GPU N' line");
  std::vector<std::unique_ptr<hipasm::rt::module>> mods(node->size());
  std::vector<hipasm::rt::device_launch> ls(node->size());
  for (unsigned d = 0; d < node->size(); ++d) {
    if (!launches[d]) throw error(sim::printable(program) + ": device " + std::to_string(d) + " has no launch");
    const launch_def& l = *launches[d];
    mods[d] = node->at(d).load_file(l.code_object);
    const sim::CodeObject co = sim::load_code_object(sim::select_code_object(sim::read_file_bytes(l.code_object),
                                                                             node->at(d).target()));
    const sim::KernelInfo& k = co.kernel(l.kernel);
    std::vector<const sim::KernelArgInfo*> explicit_args;
    for (const auto& a : k.args)
      if (!a.hidden()) explicit_args.push_back(&a);
    if (explicit_args.size() != l.args.size())
      throw error(l.where + ": kernel '" + sim::printable(k.name) + "' takes " + std::to_string(explicit_args.size()) +
                  " arguments, " + std::to_string(l.args.size()) + " given");
    hipasm::rt::kernel_args args;
    for (size_t i = 0; i < l.args.size(); ++i) {
      const std::string& t = l.args[i];
      const std::string what = l.where + ": argument " + std::to_string(i + 1) + " '" + sim::printable(t) + "'";
      if (explicit_args[i]->pointer()) {
        if (t == "null") {
          args.add(uint64_t{0});
          continue;
        }
        auto it = buffers.find(t);
        if (it == buffers.end()) throw error(what + ": the kernel takes a buffer; no buffer has that name");
        uint64_t addr = it->second.addr;
        if (it->second.device != d) {
          uint64_t& m = mapped[{d, t}];
          if (!m) m = node->map_peer(d, it->second.device, it->second.addr);
          addr = m;
        }
        args.add(addr);
        continue;
      }
      const arg_spec a = parse_arg(t);
      if (a.is_buffer) throw error(what + ": the kernel takes a value here");
      if (a.value.size() != explicit_args[i]->size)
        throw error(what + " is " + std::to_string(a.value.size()) + " bytes, the kernel's argument " +
                    std::to_string(explicit_args[i]->size));
      args.add_bytes(a.value.data(), a.value.size());
    }
    ls[d] = {mods[d].get(), l.kernel, l.grid, l.block, std::move(args)};
  }
  const std::vector<hipasm::rt::launch_report> reports = node->launch(ls, lo);
  for (const auto& [name, b] : buffers) {
    if (b.out.empty()) continue;
    output_file f(b.out);
    std::vector<uint8_t> data(b.bytes);
    if (b.bytes) node->at(b.device).copy_from_device(data.data(), b.addr, b.bytes);
    f.write(data);
  }
  size_t errors = 0;
  for (unsigned d = 0; d < reports.size(); ++d) {
    const auto& r = reports[d];
    for (const auto& x : r.diagnostics) std::printf("device %u: %s\n", d, x.c_str());
    for (const auto& x : r.warnings) std::printf("warning: device %u: %s\n", d, x.c_str());
    std::printf("hipasm-sim: device %u: %s grid %s block %s: %llu wave-instructions, %zu checker finding%s\n", d,
                sim::printable(launches[d]->kernel).c_str(), dims_str(launches[d]->grid).c_str(),
                dims_str(launches[d]->block).c_str(), (unsigned long long)r.instructions, r.diagnostics.size(),
                r.diagnostics.size() == 1 ? "" : "s");
    errors += r.diagnostics.size();
  }
  std::fflush(stdout);
  if (errors) {
    std::fprintf(stderr, "hipasm-sim: error: the checker reported %zu problem%s (listed on stdout)\n", errors,
                 errors == 1 ? "" : "s");
    return kExitFindings;
  }
  return 0;
}

// ---------------------------------------------------------------------------- profile

struct profile_cli {
  hipasm::rt::profile_options options;
  bool json = false;
  std::string trace_out;
  bool have_timeline = false;
  uint32_t timeline = 0;
};

// `profile` = `run` plus the timing options, which are taken out before run's parser sees the rest.
int profile(const std::vector<std::string>& argv) {
  profile_cli p;
  std::vector<std::string> rest;
  for (size_t i = 0; i < argv.size(); ++i) {
    option_word word(argv, i);
    const std::string& opt = word.opt;
    const bool inline_value = word.inline_value;
    auto take = [&] { return word.take(); };
    if (opt == "--arg") {  // run's; its value may look like anything
      rest.push_back(argv[i]);
      if (!inline_value && i + 1 < argv.size()) rest.push_back(argv[++i]);
    } else if (opt == "--clock") {
      p.options.clock_mhz = parse_double(take(), "--clock", false);
      if (!(p.options.clock_mhz >= 100 && p.options.clock_mhz <= 5000))
        throw usage_error("--clock: expected MHz between 100 and 5000");
    } else if (opt == "--json") {
      if (inline_value) throw usage_error("--json takes no value");
      p.json = true;
    } else if (opt == "--trace-out") {
      p.trace_out = take();
      if (p.trace_out.empty()) throw usage_error("--trace-out needs a file name");
    } else if (opt == "--timeline") {
      p.timeline = parse_int<uint32_t>(take(), "--timeline");
      p.have_timeline = true;
    } else if (opt == "--asm") {
      p.options.asm_source = take();
    } else if (opt == "--sample") {
      p.options.sample_cus = parse_int<uint32_t>(take(), "--sample");
      if (p.options.sample_cus == 0) throw usage_error("--sample: at least 1 CU");
    } else {
      rest.push_back(argv[i]);
    }
  }
  p.options.keep_events = !p.trace_out.empty() || p.have_timeline;
  run_options o = parse_run(rest);  // (--device is run's too: the GPU that runs and is timed)
  if (!o.device.empty()) {
    p.options.device = o.device;
  } else {
    // Without --device: the first GPU of the code object's own target (mi300x for gfx942, mi355x
    // for gfx950; a fat binary: its gfx942 entry), as `run` runs it on that target.
    const sim::CodeObject co = sim::load_code_object(sim::select_code_object(sim::read_file_bytes(o.code_object), "gfx942"));
    for (const auto& d : sim::timing::kDevices)
      if (d.target == co.arch->name) {
        p.options.device = std::string(d.name);
        break;
      }
  }
  if (o.launch.trace && p.json) throw usage_error("--trace and --json both write to stdout");
  o.launch.profile = &p.options;
  if (!p.options.asm_source.empty()) o.asm_listing = p.options.asm_source;
  return run(o, &p);
}

int report_profile(const profile_cli& p, const hipasm::rt::launch_report& report) {
  const hipasm::rt::profile& prof = *report.profile;
  if (p.have_timeline) (void)prof.timeline(p.timeline);  // a bad wave number fails before any output
  if (!p.trace_out.empty()) {
    output_file f(p.trace_out);
    prof.write_trace(f.f);
    const bool bad = std::fflush(f.f) != 0 || std::ferror(f.f);
    if (bad) throw error("cannot write " + sim::printable(p.trace_out) + ": " + std::strerror(errno));
  }
  // Checker findings go to stderr with --json (stdout holds only the JSON object).
  std::FILE* notes = p.json ? stderr : stdout;
  for (const auto& d : report.diagnostics) std::fprintf(notes, "%s\n", d.c_str());
  for (const auto& d : report.warnings) std::fprintf(notes, "warning: %s\n", d.c_str());
  if (!report.findings.empty())
    std::fprintf(notes, "hipasm-sim: checker summary by rule and pc:\n%s", hipasm::rt::checker_summary(report).c_str());
  if (p.json) {
    std::printf("%s\n", prof.json().c_str());
  } else {
    std::fputs(prof.report().c_str(), stdout);
    if (p.have_timeline) std::fputs(prof.timeline(p.timeline).c_str(), stdout);
  }
  std::fflush(stdout);
  if (!report.diagnostics.empty()) {
    std::fprintf(stderr, "hipasm-sim: error: the checker reported %zu problem%s\n", report.diagnostics.size(),
                 report.diagnostics.size() == 1 ? "" : "s");
    return kExitFindings;
  }
  return 0;
}

int main_impl(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) throw usage_error("missing command (info or run; see --help)");
  const std::string cmd = args[0];
  args.erase(args.begin());
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    }
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (cmd == "info") {
    const bool decode = !args.empty() && args[0] == "--decode";
    if (decode) args.erase(args.begin());
    if (args.size() != 1) throw usage_error("info takes exactly one CODE_OBJECT (after --decode)");
    const std::vector<uint8_t> bytes = sim::read_file_bytes(args[0]);
    if (!sim::is_offload_bundle(bytes)) {
      const sim::CodeObject co = sim::load_code_object(bytes);
      print_info(args[0], co);
      return decode ? print_unsupported(co) : 0;
    }
    // A fat binary: its entries, then each code object as a code object file is listed (all
    // parsed first, so a bad entry fails before any output).
    const std::vector<sim::BundleEntry> entries = sim::read_offload_bundle(bytes);
    std::vector<std::pair<std::string, sim::CodeObject>> cos;
    for (const sim::BundleEntry& e : entries)
      if (!e.processor().empty()) {
        try {
          cos.emplace_back(e.processor(), sim::load_code_object(sim::select_code_object(bytes, e.processor())));
        } catch (const sim::error& x) {
          throw error("entry " + sim::printable(e.id) + ": " + x.what());
        }
      }
    std::printf("%s: offload bundle, %zu entr%s\n", sim::printable(args[0]).c_str(), entries.size(),
                entries.size() == 1 ? "y" : "ies");
    for (const sim::BundleEntry& e : entries)
      std::printf("  %s  offset %llu  size %llu\n", sim::printable(e.id).c_str(), (unsigned long long)e.offset,
                  (unsigned long long)e.size);
    int status = 0;
    for (const auto& [arch, co] : cos) {
      std::printf("\n");
      print_info(args[0] + " [" + arch + "]", co);
      if (decode) status = std::max(status, print_unsupported(co));
    }
    return status;
  }
  if (cmd == "run") return run(parse_run(args));
  if (cmd == "profile") return profile(args);
  if (cmd == "node") return node_program(args);
  throw usage_error("unknown command '" + sim::printable(cmd) + "' (info, run, node or profile; see --help)");
}

// The one line of an error: newlines from any source are folded so the rule holds.
void print_error(std::string msg) {
  for (char& c : msg)
    if (c == '\n' || c == '\r') c = ' ';
  std::fflush(stdout);
  std::fprintf(stderr, "hipasm-sim: error: %s\n", msg.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  // `hipasm-sim info X | head` must not die of SIGPIPE; a failed write is reported instead.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    const int status = main_impl(argc, argv);
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      print_error("cannot write to standard output");
      return kExitError;
    }
    return status;
  } catch (const usage_error& e) {
    print_error(e.what());
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    print_error("out of memory");
  } catch (const std::exception& e) {
    print_error(e.what());
  } catch (...) {
    print_error("unknown internal error");
  }
  return kExitError;
}
