// libFuzzer's entry for programs that have their own main() (LLVM 13 and later), declared for
// Swift. The definition comes from the fuzzer runtime that -sanitize=fuzzer links in.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
