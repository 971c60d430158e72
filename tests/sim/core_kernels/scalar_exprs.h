// The expressions of the scalar test, shared by the kernel (device) and the host reference.
#pragma once
#if defined(__HIP__)
#define SCALAR_FN __attribute__((host, device)) inline
#else
#define SCALAR_FN inline
#endif

constexpr int kScalarResults = 64;

SCALAR_FN void scalar_exprs(unsigned* r, unsigned a, unsigned b, int c, int d,
                            unsigned long long e, unsigned long long f) {
  int i = 0;
  r[i++] = a + b;
  r[i++] = a - b;
  r[i++] = a * b;
  r[i++] = unsigned(c) + unsigned(d);
  r[i++] = unsigned(c) * unsigned(d);
  r[i++] = a < b;
  r[i++] = a >= b;
  r[i++] = c < d;
  r[i++] = c >= d;
  r[i++] = a == b;
  r[i++] = c != d;
  r[i++] = a < b ? a : b;
  r[i++] = a > b ? a : b;
  r[i++] = unsigned(c < d ? c : d);
  r[i++] = unsigned(c > d ? c : d);
  r[i++] = a & b;
  r[i++] = a | b;
  r[i++] = a ^ b;
  r[i++] = a & ~b;
  r[i++] = a | ~b;
  r[i++] = ~(a ^ b);
  r[i++] = a << (b & 31);
  r[i++] = a >> (b & 31);
  r[i++] = unsigned(c >> (b & 31));
  r[i++] = unsigned(__builtin_popcount(a));
  r[i++] = unsigned(__builtin_clz(a | 1));
  r[i++] = unsigned(__builtin_ctz(b | 0x80000000u));
  r[i++] = __builtin_bitreverse32(a);
  r[i++] = (a >> 5) & 0x3ff;
  r[i++] = unsigned((c << 3) >> 12);
  r[i++] = unsigned(c < 0 ? -(long long)c : c);
  r[i++] = unsigned((unsigned long long)a * b >> 32);
  r[i++] = unsigned((long long)c * d >> 32);
  r[i++] = c > 5 ? a : b;
  r[i++] = (a << 2) + b;
  unsigned long long s = e + f, t = e - f, u = e & ~f;
  r[i++] = unsigned(s); r[i++] = unsigned(s >> 32);
  r[i++] = unsigned(t); r[i++] = unsigned(t >> 32);
  r[i++] = unsigned(u); r[i++] = unsigned(u >> 32);
  unsigned long long sh = e << (b & 63), shr = e >> (b & 63);
  long long sar = (long long)e >> (b & 63);
  r[i++] = unsigned(sh); r[i++] = unsigned(sh >> 32);
  r[i++] = unsigned(shr); r[i++] = unsigned(shr >> 32);
  r[i++] = unsigned(sar); r[i++] = unsigned((unsigned long long)sar >> 32);
  r[i++] = e == f;
  r[i++] = e < f;
  r[i++] = unsigned(__builtin_popcountll(e));
  r[i++] = unsigned(__builtin_clzll(e | 1));
  r[i++] = unsigned(int(short(a)));
  r[i++] = unsigned(int((signed char)b));
  r[i++] = a * 13u;
  r[i++] = a + 1000u;
  r[i++] = (a & 0xffff) | (b << 16);
  r[i++] = a / 7u;
  r[i++] = unsigned(c / 7);
  r[i++] = a % 13u;
  r[i++] = b != 0 ? a / b : 0u;
  r[i++] = d != 0 && !(c == (-2147483647 - 1) && d == -1) ? unsigned(c % d) : 0u;
  unsigned long long m = e * f;
  r[i++] = unsigned(m); r[i++] = unsigned(m >> 32);
  r[i++] = unsigned(e > f ? e : f);
  while (i < kScalarResults) { r[i] = unsigned(i) * 0x9e3779b9u; ++i; }
}
