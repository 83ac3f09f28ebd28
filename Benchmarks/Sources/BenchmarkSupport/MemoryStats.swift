import CHeapStats

#if canImport(Glibc)
import Glibc
#endif

/// Bytes the C heap has handed out and not taken back (glibc `mallinfo2`:
/// in-use chunk bytes plus mmapped blocks, allocator headers included).
/// Returns 0 where `mallinfo2` is not available.
public func heapBytesInUse() -> Int {
  Int(cheapstats_heap_bytes_in_use())
}

/// The resident set size of this process (from `/proc/self/statm`), or 0.
public func residentBytes() -> Int {
  #if os(Linux)
  guard let file = fopen("/proc/self/statm", "r") else { return 0 }
  defer { fclose(file) }
  var line = [UInt8](repeating: 0, count: 256)
  let read = fread(&line, 1, 255, file)
  let fields = String(decoding: line[..<read], as: UTF8.self).split(separator: " ")
  guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
  return 0
  #endif
}

/// Returns the heap's free pages to the system (glibc `malloc_trim`), so
/// that the next allocations start on fresh pages as in a new process.
public func releaseFreeHeapMemory() {
  cheapstats_release_free_memory()
}

/// Stops the heap from returning free pages to the system, so that what one
/// iteration frees stays resident for the next.
public func keepFreeHeapMemory() {
  cheapstats_keep_free_memory()
}
