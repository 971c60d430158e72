/* hipasm-sim's C ABI (libhipasm_sim.so): the simulator and the code-object loader for callers
 * that cannot use C++ (Python's ctypes, python/hipasm). It wraps the runtime's C++ launcher
 * (hipasm/rt/launcher.hpp): the same loader, argument checks, hidden-argument filling, checker
 * and timing model.
 *
 * Every function that can fail returns an int status (HIPASM_SIM_OK = 0) and leaves a one-line
 * message for hipasm_sim_last_error(); none throws or aborts on bad input. Strings a function
 * hands out belong to the object it was asked about and live as long as that object. */
#ifndef HIPASM_SIM_CAPI_H
#define HIPASM_SIM_CAPI_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HIPASM_SIM_ABI_VERSION 3

enum hipasm_sim_status {
  HIPASM_SIM_OK = 0,
  HIPASM_SIM_ERROR = 1,             /* the simulator or loader refused (bad ELF, bad launch, fault) */
  HIPASM_SIM_INVALID_ARGUMENT = 2,  /* a null handle or pointer, an index out of range */
  HIPASM_SIM_OUT_OF_MEMORY = 3,
  HIPASM_SIM_INTERNAL = 4           /* anything else the C++ side threw */
};

typedef struct hipasm_sim_device hipasm_sim_device;
typedef struct hipasm_sim_module hipasm_sim_module;
typedef struct hipasm_sim_code_object hipasm_sim_code_object;
typedef struct hipasm_sim_report hipasm_sim_report;
typedef struct hipasm_sim_node hipasm_sim_node;

int hipasm_sim_abi_version(void);
/* The last failure's message on this thread ("" when none). */
const char* hipasm_sim_last_error(void);

/* ---- code objects: the loader's view of a gfx942/gfx950 ELF, no device needed */
typedef struct {
  const char* name;
  const char* symbol;
  uint64_t kernarg_segment_size, kernarg_segment_align;
  uint64_t group_segment_fixed_size, private_segment_fixed_size;
  uint32_t arg_count;           /* all .args entries, hidden ones included */
  uint32_t explicit_arg_count;  /* the ones a caller passes */
  uint32_t explicit_args_end;   /* bytes of kernarg a caller packs: the end of the last explicit argument */
  uint32_t max_flat_workgroup_size, wavefront_size;
  uint32_t sgpr_count, vgpr_count, agpr_count;
  uint32_t kernarg_preload_dwords; /* leading kernarg dwords the kernel reads from SGPRs */
} hipasm_sim_kernel;

typedef struct {
  const char* name;           /* .name ("" when the metadata has none) */
  const char* type_name;      /* .type_name, e.g. "float*" ("" when none) */
  const char* value_kind;     /* by_value, global_buffer, hidden_block_count_x, ... */
  const char* address_space;  /* global, constant, ... ("" for values) */
  uint32_t offset, size;
  int32_t hidden;             /* a hidden_* argument: the launcher fills it */
  int32_t pointer;            /* takes a device address */
} hipasm_sim_arg;

/* bytes: a code object, or a fat binary (clang offload bundle) holding exactly one. */
int hipasm_sim_inspect(const void* bytes, size_t size, hipasm_sim_code_object** out);
/* A fat binary's code object for `target` ("gfx942", "gfx950"; an error when it has none); a
 * plain code object is inspected as it is. target NULL or "": as hipasm_sim_inspect. */
int hipasm_sim_inspect_target(const void* bytes, size_t size, const char* target, hipasm_sim_code_object** out);
void hipasm_sim_code_object_free(hipasm_sim_code_object* co);
/* amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx942" */
const char* hipasm_sim_code_object_target(const hipasm_sim_code_object* co);
int hipasm_sim_kernel_count(const hipasm_sim_code_object* co, uint32_t* count);
int hipasm_sim_kernel_info(const hipasm_sim_code_object* co, uint32_t kernel, hipasm_sim_kernel* out);
int hipasm_sim_kernel_arg(const hipasm_sim_code_object* co, uint32_t kernel, uint32_t arg, hipasm_sim_arg* out);

/* ---- the simulated device: memory, modules, launches */
/* A simulated device with no GPU named (see hipasm_sim_device_open_gpu). */
int hipasm_sim_device_open(hipasm_sim_device** out);
/* The simulated GPU `gpu` ("mi300x", "mi355x", ...: the timing model's devices). Its target picks
 * a fat binary's code object in hipasm_sim_load / _load_file, and a plain code object for another
 * target is refused. NULL (and hipasm_sim_device_open): no GPU named, as rt::device::open(): a
 * plain code object runs as its target says, a fat binary's gfx942 code object is taken. */
int hipasm_sim_device_open_gpu(const char* gpu, hipasm_sim_device** out);
/* The device's target, "gfx942" or "gfx950". */
const char* hipasm_sim_device_target(const hipasm_sim_device* dev);
void hipasm_sim_device_close(hipasm_sim_device* dev); /* after its modules and reports */

int hipasm_sim_alloc(hipasm_sim_device* dev, size_t bytes, uint64_t* addr);
int hipasm_sim_free(hipasm_sim_device* dev, uint64_t addr);
int hipasm_sim_copy_to_device(hipasm_sim_device* dev, uint64_t dst, const void* src, size_t bytes);
int hipasm_sim_copy_from_device(hipasm_sim_device* dev, void* dst, uint64_t src, size_t bytes);

/* bytes: a code object (an error when built for another target than a named GPU's), or a fat
 * binary: its code object for the device's target (an error when it has none). */
int hipasm_sim_load(hipasm_sim_device* dev, const void* bytes, size_t size, hipasm_sim_module** out);
/* Also picks up the asm listings beside the file (<stem>.s), so findings name source lines. */
int hipasm_sim_load_file(hipasm_sim_device* dev, const char* path, hipasm_sim_module** out);
void hipasm_sim_module_free(hipasm_sim_module* m);
/* The module's code object (borrowed: lives as long as the module). */
const hipasm_sim_code_object* hipasm_sim_module_code_object(const hipasm_sim_module* m);

typedef struct {
  uint32_t dynamic_lds;
  uint32_t threads;            /* 0: all cores */
  uint64_t seed;               /* 0: deterministic wave order */
  uint64_t instruction_budget; /* 0: the default */
  int32_t check;               /* run the checker (default 1) */
  int32_t check_undefined;     /* track undefined data too (default 1) */
  const char* allow;           /* comma-separated checker rules reported as warnings, or NULL */
  const char* profile_device;  /* non-NULL: also run the timing model for this device ("mi300x") */
  double clock_mhz;            /* profile: 0 = estimated */
  int32_t keep_events;         /* profile: keep every instruction's slice (needed for the trace) */
  uint32_t sample_cus;         /* profile: 0 = the whole grid */
} hipasm_sim_launch_options;

void hipasm_sim_launch_options_init(hipasm_sim_launch_options* o);

/* Launches `kernel`: kernarg holds the explicit arguments packed at their metadata offsets
 * (hipasm_sim_kernel::explicit_args_end bytes, what hipModuleLaunchKernel takes); the
 * launcher fills the hidden ones. A run whose checker found problems still succeeds: read them
 * from the report. opts may be NULL (the defaults). */
int hipasm_sim_launch(hipasm_sim_device* dev, hipasm_sim_module* m, const char* kernel, const uint32_t grid[3],
                      const uint32_t block[3], const void* kernarg, size_t kernarg_bytes,
                      const hipasm_sim_launch_options* opts, hipasm_sim_report** out);
void hipasm_sim_report_free(hipasm_sim_report* r);

typedef struct {
  uint64_t pc;
  const char* rule;         /* "pending-read", "hazard mfma-read", ... */
  const char* instruction;
  const char* message;      /* the first occurrence's diagnostic line */
  const char* source;       /* "file.cpp:12" or "" */
  uint64_t count;
  uint32_t first_workgroup, first_wave;
  int32_t allowed;          /* a warning (its rule was in allow) */
} hipasm_sim_finding;

uint64_t hipasm_sim_report_instructions(const hipasm_sim_report* r);
uint32_t hipasm_sim_report_error_count(const hipasm_sim_report* r); /* findings that are errors */
uint32_t hipasm_sim_report_finding_count(const hipasm_sim_report* r);
int hipasm_sim_report_finding(const hipasm_sim_report* r, uint32_t i, hipasm_sim_finding* out);
/* The findings grouped by rule (rt::checker_summary); "" when clean. */
const char* hipasm_sim_report_summary(const hipasm_sim_report* r);
/* The timing model's report as one JSON object (hipasm-sim profile --json); NULL without a profile. */
const char* hipasm_sim_report_profile_json(const hipasm_sim_report* r);
/* The Chrome trace-event JSON (Perfetto) of a profile run with keep_events. */
int hipasm_sim_report_write_trace(const hipasm_sim_report* r, const char* path);

/* ---- several devices in one simulation (rt::node; ABI version 3) */
/* `devices` (1..8) simulated GPUs `gpu` ("mi300x", ...), each with its own memory. */
int hipasm_sim_node_open(const char* gpu, uint32_t devices, hipasm_sim_node** out);
void hipasm_sim_node_close(hipasm_sim_node* node); /* after its devices' modules and reports */
uint32_t hipasm_sim_node_size(const hipasm_sim_node* node);
/* Device i of the node, for alloc, copies, load and free (borrowed: lives as long as the node;
 * never hipasm_sim_device_close it). NULL when i is out of range. */
hipasm_sim_device* hipasm_sim_node_device(hipasm_sim_node* node, uint32_t i);
/* Device `user`'s address of the allocation starting at `addr` on device `owner` (the model of
 * hipIpcOpenMemHandle); hipasm_sim_free on device `user` unmaps it. */
int hipasm_sim_node_map_peer(hipasm_sim_node* node, uint32_t user, uint32_t owner, uint64_t addr, uint64_t* out);

typedef struct {
  hipasm_sim_module* module; /* loaded by the node's device of this launch's index */
  const char* kernel;
  uint32_t grid[3], block[3];
  const void* kernarg;       /* as hipasm_sim_launch's */
  size_t kernarg_bytes;
} hipasm_sim_node_launch_desc;

/* One launch per device (launches[i] on device i; count = the node's size), run together: the
 * waves of all devices interleave (opts->seed varies the order). reports[i] gets device i's
 * report (free each). opts may be NULL; profile_device must be NULL (no timing on a node yet). */
int hipasm_sim_node_launch(hipasm_sim_node* node, const hipasm_sim_node_launch_desc* launches, uint32_t count,
                           const hipasm_sim_launch_options* opts, hipasm_sim_report** reports);

#ifdef __cplusplus
}
#endif
#endif /* HIPASM_SIM_CAPI_H */
