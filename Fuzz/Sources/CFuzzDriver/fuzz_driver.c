#include "fuzz_driver.h"

// libFuzzer's entry point for programs that bring their own `main`.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv,
                               int (*test)(const uint8_t *data, size_t size));

int fuzz_driver_run(int argc, char **argv, int (*test)(const uint8_t *data, size_t size)) {
  return LLVMFuzzerRunDriver(&argc, &argv, test);
}
