// test_operand_dtypes.cpp for gfx950's MFMA atoms (f8f6f4, the scaled forms).
#include "test_operand_dtypes.cpp"
