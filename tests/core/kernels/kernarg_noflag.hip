// The same kernels without kernarg preloading in the translation unit.
#include "kernarg_preload_kernels.hpp"
