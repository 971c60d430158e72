// A stand-in for libamdhip64 with the few entry points hipasm's Python HIP backend calls: it
// runs nothing, it records each call as a line of text (fake_hip_log) so the tests can check
// the call sequence and the exact kernarg bytes handed to hipModuleLaunchKernel.
// fake_hip_set("device_count" | "fail_launch" | "fail_load", value) steers it.
#include <cstdint>
#include <cstdio>
#include <cstdarg>
#include <cstring>
#include <string>

namespace {
std::string log_text;
int device_count = 1, fail_launch = 0, fail_load = 0;
uint64_t next_handle = 0x1000;
constexpr int kInvalidValue = 1, kNoDevice = 100, kInvalidImage = 200, kNotFound = 500;

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
}
void fake_hip_set(const char* key, int value) {
  if (!std::strcmp(key, "device_count")) device_count = value;
  else if (!std::strcmp(key, "fail_launch")) fail_launch = value;
  else if (!std::strcmp(key, "fail_load")) fail_load = value;
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
int hipModuleLoadData(void** module, const void* image) {
  const auto* b = static_cast<const unsigned char*>(image);
  const bool elf = b && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
  record("hipModuleLoadData %s", elf ? "elf" : "not-elf");
  if (fail_load || !elf) return kInvalidImage;
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
    case kNotFound: return "hipErrorNotFound";
    default: return "hipErrorUnknown";
  }
}

}  // extern "C"
