// The code-object loader: validates a gfx942/gfx950 ELF64 code object as clang-22 produces it
// (several kernels per file), reads each kernel's NT_AMDGPU_METADATA entry (arguments with
// offsets, sizes and kinds) and its 64-byte kernel descriptor, and turns both into the
// KernelImage the dispatcher runs. Input is untrusted: every offset, size and string is
// bounds-checked, and anything malformed throws sim::error with one line naming the problem.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core.hpp"

namespace hipasm::sim {

// One entry of the metadata's `.args` list.
struct KernelArgInfo {
  std::string name;            // `.name` (may be empty)
  std::string type_name;       // `.type_name` (may be empty)
  std::string value_kind;      // `.value_kind`: by_value, global_buffer, hidden_block_count_x...
  std::string address_space;   // `.address_space` (pointer args: global, constant, ...)
  uint32_t offset = 0, size = 0;
  bool hidden() const { return value_kind.starts_with("hidden_"); }
  // Arguments that take a device address (a buffer) rather than a value.
  bool pointer() const { return value_kind == "global_buffer" || value_kind == "dynamic_shared_pointer"; }
};

// The 64-byte kernel descriptor (AMDGPU "amdhsa" code object v4+ layout), raw and decoded.
struct KernelDescriptor {
  uint32_t group_segment_fixed_size = 0, private_segment_fixed_size = 0, kernarg_size = 0;
  int64_t kernel_code_entry_byte_offset = 0;
  uint32_t compute_pgm_rsrc1 = 0, compute_pgm_rsrc2 = 0, compute_pgm_rsrc3 = 0;
  uint16_t kernel_code_properties = 0, kernarg_preload = 0;

  // compute_pgm_rsrc1
  uint32_t granulated_workitem_vgpr_count = 0, granulated_wavefront_sgpr_count = 0, priority = 0;
  uint32_t float_round_mode_32 = 0, float_round_mode_16_64 = 0, float_denorm_mode_32 = 0,
           float_denorm_mode_16_64 = 0;
  bool priv = false, dx10_clamp = false, debug_mode = false, ieee_mode = false, bulky = false,
       cdbg_user = false, fp16_overflow = false;
  // compute_pgm_rsrc2
  bool enable_private_segment = false, enable_trap_handler = false;
  uint32_t user_sgpr_count = 0;
  bool workgroup_id_x = false, workgroup_id_y = false, workgroup_id_z = false,
       workgroup_info = false;
  uint32_t vgpr_workitem_id = 0;
  uint32_t exception_bits = 0;  // rsrc2 [30:24] (ieee invalid .. int div zero) | [14:13]
  // compute_pgm_rsrc3 (gfx90a/gfx942)
  uint32_t accum_offset = 4;  // in registers: (field + 1) * 4
  bool tg_split = false;
  // kernel_code_properties
  bool private_segment_buffer = false, dispatch_ptr = false, queue_ptr = false,
       kernarg_segment_ptr = false, dispatch_id = false, flat_scratch_init = false,
       private_segment_size = false, wavefront_size32 = false, uses_dynamic_stack = false;
  // kernarg_preload
  uint32_t kernarg_preload_length = 0, kernarg_preload_offset = 0;

  // Registers the granules encode (gfx942 wave64: VGPRs in blocks of 8, unified with
  // AGPRs; SGPRs in blocks of 8, as clang-22 encodes them, checked against its metadata).
  uint32_t allocated_vgprs() const { return (granulated_workitem_vgpr_count + 1) * 8; }
  uint32_t allocated_sgprs() const { return (granulated_wavefront_sgpr_count + 1) * 8; }
  // The user SGPRs kernel_code_properties enable (before any preloaded kernarg dwords).
  uint32_t enabled_user_sgprs() const {
    return 4 * private_segment_buffer + 2 * dispatch_ptr + 2 * queue_ptr + 2 * kernarg_segment_ptr +
           2 * dispatch_id + 2 * flat_scratch_init + private_segment_size;
  }
};

struct KernelInfo {
  std::string name;    // `.name`
  std::string symbol;  // `.symbol`, "<name>.kd"
  std::vector<KernelArgInfo> args;
  uint64_t kernarg_segment_size = 0, kernarg_segment_align = 0, group_segment_fixed_size = 0,
           private_segment_fixed_size = 0, sgpr_count = 0, vgpr_count = 0, agpr_count = 0,
           wavefront_size = 0, max_flat_workgroup_size = 0, sgpr_spill_count = 0,
           vgpr_spill_count = 0;
  bool uses_dynamic_stack = false;
  uint64_t descriptor_vaddr = 0;
  KernelDescriptor kd;
  KernelImage image;  // what the dispatcher runs

  size_t explicit_arg_count() const;
};

struct CodeObject {
  // The loadable image: PT_LOAD segments at their virtual addresses (vaddr 0 = image start),
  // zero-filled past each segment's file bytes. Kernels address constant data relative to
  // their pc (s_getpc_b64), so a device maps the whole image, not just .text.
  struct segment {
    uint64_t vaddr = 0, memsz = 0;
    std::vector<uint8_t> bytes;  // the file bytes (filesz <= memsz)
  };
  std::vector<segment> segments;
  uint64_t image_size = 0;  // highest vaddr + memsz over the segments
  // R_AMDGPU_RELATIVE64 dynamic relocations: the 64-bit word at image offset `offset`
  // becomes load base + addend.
  struct relocation {
    uint64_t offset = 0;
    int64_t addend = 0;
  };
  std::vector<relocation> relocations;
  // The image as bytes, with relocations applied for a load at device address `base`.
  std::vector<uint8_t> image_at(uint64_t base) const;

  uint8_t abi_version = 0;  // EI_ABIVERSION: 2 = code object v4, 3 = v5, 4 = v6
  const Target* arch = &target_gfx942();  // the GPU e_flags name (gfx942 or gfx950)
  uint32_t e_flags = 0;
  std::string target;       // `amdhsa.target`, e.g. "amdgcn-amd-amdhsa--gfx942"; when the
                            // metadata has none (AMD's asm kernels), the target ID e_flags encode
  bool target_from_e_flags = false;
  std::vector<uint64_t> metadata_version;  // `amdhsa.version`
  std::vector<KernelInfo> kernels;

  const KernelInfo* find(std::string_view name) const;
  // Throws sim::error "no kernel 'x' in the code object (it has: a, b)".
  const KernelInfo& kernel(std::string_view name) const;
};

// The target ID a code object's e_flags encode (code object v4+: xnack and sramecc each
// unsupported/any/off/on), spelled as clang spells amdhsa.target: "amdgcn-amd-amdhsa--gfx942",
// "amdgcn-amd-amdhsa--gfx942:sramecc-:xnack+" (the target e_flags[7:0] name).
std::string target_id_from_e_flags(uint32_t e_flags);

// Parses and validates a whole code object. Throws sim::error on anything malformed.
CodeObject load_code_object(std::span<const uint8_t> bytes);

// Reads a file into memory; throws sim::error "cannot read PATH: reason".
std::vector<uint8_t> read_file_bytes(const std::string& path);

// `name` made safe for a one-line diagnostic (control bytes replaced, length bounded).
std::string printable(std::string_view name);

}  // namespace hipasm::sim
