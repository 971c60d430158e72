// A stand-in for libamdhip64 with the few entry points hipasm's Python HIP backend calls: it
// runs nothing, it records each call as a line of text (fake_hip_log) so the tests can check
// the call sequence and the exact kernarg bytes handed to hipModuleLaunchKernel.
// fake_hip_set("device_count" | "fail_launch" | "fail_load" | "arch", value) steers it ("arch":
// 942 or 950, the GPU's gcnArchName; a fat binary loads only with an entry for it, as on HIP).
#include <cstdint>
#include <cstdio>
#include <cstdarg>
#include <cstring>
#include <string>

namespace {
std::string log_text;
int device_count = 1, fail_launch = 0, fail_load = 0, arch = 942;
uint64_t next_handle = 0x1000;
constexpr int kInvalidValue = 1, kNoDevice = 100, kInvalidImage = 200, kNoBinaryForGpu = 209, kNotFound = 500;
constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";

void record(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void record(const char* fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  log_text += line;
  log_text += '\n';
}
}  // namespace

extern "C" {

const char* fake_hip_log() { return log_text.c_str(); }
void fake_hip_reset() {
  log_text.clear();
  device_count = 1;
  fail_launch = fail_load = 0;
  arch = 942;
}
void fake_hip_set(const char* key, int value) {
  if (!std::strcmp(key, "device_count")) device_count = value;
  else if (!std::strcmp(key, "fail_launch")) fail_launch = value;
  else if (!std::strcmp(key, "fail_load")) fail_load = value;
  else if (!std::strcmp(key, "arch")) arch = value;
}

int hipInit(unsigned flags) {
  record("hipInit %u", flags);
  return 0;
}
int hipGetDeviceCount(int* n) {
  record("hipGetDeviceCount");
  if (!n) return kInvalidValue;
  *n = device_count;
  return device_count > 0 ? 0 : kNoDevice;
}
int hipSetDevice(int d) {
  record("hipSetDevice %d", d);
  return d < device_count ? 0 : kInvalidValue;
}
// Writes the name and gcnArchName where HIP 5.2's hipDeviceProp_t has them (the backend looks
// for the "gfx" name anywhere in the struct, whose layout differs between HIP versions).
int hipGetDeviceProperties(void* prop, int d) {
  record("hipGetDeviceProperties %d", d);
  if (!prop || d >= device_count) return kInvalidValue;
  char* p = static_cast<char*>(prop);
  std::snprintf(p, 256, "AMD Instinct %s", arch == 950 ? "MI355X" : "MI300X");
  std::snprintf(p + 396, 256, "gfx%d:sramecc+:xnack-", arch);
  return 0;
}
int hipModuleLoadData(void** module, const void* image) {
  const auto* b = static_cast<const unsigned char*>(image);
  const bool elf = b && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
  const bool bundle = b && !std::memcmp(b, kBundleMagic, sizeof kBundleMagic - 1);
  record("hipModuleLoadData %s", elf ? "elf" : bundle ? "bundle" : "not-elf");
  if (bundle) {
    // HIP's runtime takes the entry for the device (entry ids follow the 32-byte header).
    uint64_t n;
    std::memcpy(&n, b + 24, 8);
    const unsigned char* at = b + 32;
    bool found = false;
    char want[64];
    std::snprintf(want, sizeof want, "hipv4-amdgcn-amd-amdhsa--gfx%d", arch);
    for (uint64_t i = 0; i < n && i < 16; ++i) {
      uint64_t id_len;
      std::memcpy(&id_len, at + 16, 8);
      found |= id_len == std::strlen(want) && !std::memcmp(at + 24, want, id_len);
      at += 24 + id_len;
    }
    record("  entry %s: %s", want, found ? "found" : "missing");
    if (!found) return kNoBinaryForGpu;
  } else if (!elf) {
    return kInvalidImage;
  }
  if (fail_load) return kInvalidImage;
  *module = reinterpret_cast<void*>(next_handle++);
  return 0;
}
int hipModuleUnload(void* module) {
  record("hipModuleUnload");
  return module ? 0 : kInvalidValue;
}
int hipModuleGetFunction(void** f, void* module, const char* name) {
  record("hipModuleGetFunction %s", name);
  if (!module || !name) return kInvalidValue;
  *f = reinterpret_cast<void*>(next_handle++);
  return 0;
}
int hipModuleLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void* stream, void** params, void** extra) {
  // extra: {HIP_LAUNCH_PARAM_BUFFER_POINTER, buf, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END}
  std::string bytes = "?";
  if (extra && extra[0] == reinterpret_cast<void*>(1) && extra[2] == reinterpret_cast<void*>(2) &&
      extra[4] == reinterpret_cast<void*>(3)) {
    const auto* buf = static_cast<const unsigned char*>(extra[1]);
    const size_t size = *static_cast<const size_t*>(extra[3]);
    bytes.clear();
    for (size_t i = 0; i < size; ++i) {
      char h[3];
      std::snprintf(h, sizeof h, "%02x", buf[i]);
      bytes += h;
    }
  }
  record("hipModuleLaunchKernel grid=%u,%u,%u block=%u,%u,%u shared=%u stream=0x%llx params=%s kernarg=%s", gx, gy,
         gz, bx, by, bz, shared, (unsigned long long)(uintptr_t)stream, params ? "set" : "null", bytes.c_str());
  if (!f) return kInvalidValue;
  return fail_launch;
}
int hipDeviceSynchronize() {
  record("hipDeviceSynchronize");
  return 0;
}
const char* hipGetErrorString(int e) {
  switch (e) {
    case 0: return "no error";
    case kInvalidValue: return "invalid argument";
    case kNoDevice: return "no ROCm-capable device is detected";
    case kInvalidImage: return "device kernel image is invalid";
    case kNoBinaryForGpu: return "no kernel image is available for execution on the device";
    case kNotFound: return "named symbol not found";
    default: return "unknown error";
  }
}
const char* hipGetErrorName(int e) {
  switch (e) {
    case 0: return "hipSuccess";
    case kInvalidValue: return "hipErrorInvalidValue";
    case kNoDevice: return "hipErrorNoDevice";
    case kInvalidImage: return "hipErrorInvalidImage";
    case kNoBinaryForGpu: return "hipErrorNoBinaryForGpu";
    case kNotFound: return "hipErrorNotFound";
    default: return "hipErrorUnknown";
  }
}

}  // extern "C"
