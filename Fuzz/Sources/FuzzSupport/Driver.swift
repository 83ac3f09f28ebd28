import CFuzzDriver

/// The test function libFuzzer calls with each input.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer's driver on the command line with `test`: what
/// libFuzzer's own `main` does. A fuzz target's `<Module>_main` calls this
/// (see `fuzz_driver.h` for why SwiftPM needs it).
public func runFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ test: FuzzTest
) -> CInt {
  fuzz_driver_run(argc, argv, test)
}
