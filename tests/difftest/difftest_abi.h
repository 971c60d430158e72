// The interface between a generated reference library (batch_<seed>_ref.cpp, built as a
// shared object) and the runner (run.cpp): one record per generated kernel.
#pragma once
#include <cstdint>

extern "C" {

// Reference of one kernel: evaluates `groups` workgroups of 64 lanes with plain C++ semantics.
//   in:   groups * 64 * nin words, lane gid's words at in[gid * nin ...]
//   sin:  groups * nsin words (wave-uniform inputs, workgroup w's at sin[w * nsin ...])
//   args: the four scalar kernel arguments (a0, a1: int; a2, a3: unsigned)
//   out:  groups * 64 * nout words, pre-filled by the caller; lane gid's at out[gid * nout ...]
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

// Exported by every reference library.
uint32_t difftest_kernel_count(void);
const difftest_kernel* difftest_kernel_table(void);
}
