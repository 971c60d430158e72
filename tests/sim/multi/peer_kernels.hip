// Message passing between devices of a simulated node (tests/sim/test_multi_device.cpp):
// device d writes its part into its own buffer and raises its flag; then it waits for the flag
// of its peer (d + 1) % n, reached through a peer mapping, and copies the peer's part. clang
// emits LLVM's gfx942 memory-model code sequences for the atomics' orders and scopes (the
// same on gfx950). No HIP headers: clang builtins only (-nogpuinc).
#define KERNEL extern "C" __attribute__((global))

static __attribute__((device)) inline void sync_workgroup() {  // HIP's __syncthreads
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

template <int Scope, int StoreOrder, int LoadOrder>
static __attribute__((device)) inline void exchange(int* mine, unsigned* my_flag, const int* peer, unsigned* peer_flag,
                                                    int* out, int value) {
  const int i = int(__builtin_amdgcn_workitem_id_x());
  mine[i] = value + i;
  sync_workgroup();
  if (i == 0) {
    __hip_atomic_store(my_flag, 1u, StoreOrder, Scope);
    while (__hip_atomic_load(peer_flag, LoadOrder, Scope) == 0) __builtin_amdgcn_s_sleep(1);
  }
  sync_workgroup();
  out[i] = peer[i];
}

#define PEER_KERNEL(NAME, SCOPE, STORE, LOAD)                                                                    \
  KERNEL void NAME(int* mine, unsigned* my_flag, const int* peer, unsigned* peer_flag, int* out, int value) { \
    exchange<SCOPE, STORE, LOAD>(mine, my_flag, peer, peer_flag, out, value);                                 \
  }

// release / acquire at system scope: the peer's part is visible
PEER_KERNEL(peer_system, __HIP_MEMORY_SCOPE_SYSTEM, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)
// agent scope: buffer_wbl2 sc1 / sc1 accesses / buffer_inv sc1 do not reach another device
PEER_KERNEL(peer_agent, __HIP_MEMORY_SCOPE_AGENT, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)
// the flag stored without release: no buffer_wbl2 sc0 sc1 on the writer
PEER_KERNEL(peer_no_release, __HIP_MEMORY_SCOPE_SYSTEM, __ATOMIC_RELAXED, __ATOMIC_ACQUIRE)
// the flag loaded without acquire: no buffer_inv sc0 sc1 on the reader
PEER_KERNEL(peer_no_acquire, __HIP_MEMORY_SCOPE_SYSTEM, __ATOMIC_RELEASE, __ATOMIC_RELAXED)

// Every lane of every device adds 1 to one counter in device 0's memory (system scope).
KERNEL void peer_count(unsigned* counter) {
  __hip_atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
