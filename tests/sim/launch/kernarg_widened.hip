// clang-22 without kernarg preloading loads the three u32 after five pointers (bytes 40..51 of a
// 52-byte segment) as one s_load_dwordx4 at 40: the outside oracle for a kernarg segment read 4
// bytes past its metadata size, which the launch must not report.
#define KERNEL extern "C" __attribute__((global))
KERNEL void widened_args(int* out, const int* a, const int* b, const int* c, const int* d, unsigned m, unsigned n,
                         unsigned k) {
  out[__builtin_amdgcn_workitem_id_x()] = (int)(m + 10 * n + 100 * k) + (a == 0) + (b == 0) + (c == 0) + (d == 0);
}
