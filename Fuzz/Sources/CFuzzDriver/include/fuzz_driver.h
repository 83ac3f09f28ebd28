// libFuzzer's driver, for fuzz targets built by SwiftPM.
//
// SwiftPM links an executable with `--defsym main=<Module>_main` (so that
// tests can link executables), and with `-parse-as-library` nothing defines
// `<Module>_main`. Each fuzz target therefore defines `<Module>_main` itself
// and hands over to libFuzzer's driver here: what libFuzzer's own `main`
// does.
#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Runs libFuzzer with the command line `argc`, `argv` and the test
/// function `test`; returns the process's exit status.
int fuzz_driver_run(int argc, char **argv, int (*test)(const uint8_t *data, size_t size));

#ifdef __cplusplus
}
#endif

#endif
