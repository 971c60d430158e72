// The interface between a generated reference library (batch_<seed>_ref.cpp, built as a
// shared object) and the runner (run.cpp): one record per generated kernel.
#pragma once
#include <cstdint>

extern "C" {

// Reference of one kernel: evaluates `groups` workgroups (of WS = block x*y*z lanes, 64 when
// the library has no shapes) with plain C++ semantics. gid = linear workgroup id * WS + linear
// thread id (x + y * bx + z * bx * by).
//   in:   groups * WS * nin words, lane gid's words at in[gid * nin ...]
//   sin:  groups * nsin words (wave-uniform inputs, workgroup w's at sin[w * nsin ...])
//   args: the four scalar kernel arguments (a0, a1: int; a2, a3: unsigned)
//   out:  groups * WS * nout words, pre-filled by the caller; lane gid's at out[gid * nout ...]
typedef void (*difftest_ref_fn)(const uint32_t* in, const uint32_t* sin, const uint32_t* args,
                                uint32_t* out, uint32_t groups);

struct difftest_kernel {
  const char* name;       // the __global__ function in the code object
  uint32_t nin;           // input words per lane
  const char* in_types;   // nin characters: 'i' integer, 'f' float (what the runner puts there)
  uint32_t nsin;          // wave-uniform input words per workgroup
  uint32_t nout;          // output words per lane
  const char* out_types;  // nout characters: 'i' compare exactly, 'f' float (NaN == NaN)
  const char* features;   // the generator's features this kernel uses (for failure classes)
  difftest_ref_fn ref;
};

// The launch shape of each kernel (table order).
struct difftest_shape {
  uint32_t block[3];
  uint32_t grid[3];
};

// Exported by every reference library.
uint32_t difftest_kernel_count(void);
const difftest_kernel* difftest_kernel_table(void);
// Optional (older reproducers lack it): without it every kernel runs 64-lane workgroups,
// `--groups` of them.
const difftest_shape* difftest_kernel_shapes(void);
}
