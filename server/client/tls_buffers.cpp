// cache_tls_record_buffers(): OpenSSL's memory functions, with a thread cache of record buffers.
#include "server/client/tls_buffers.hpp"

#include <malloc.h>
#include <openssl/crypto.h>

#include <array>
#include <cstddef>
#include <cstdlib>

namespace stampede::client {

namespace {

/// The sizes OpenSSL 3 asks for a record buffer (16,384 bytes of plain text, its overhead,
/// compression's and alignment's: 16.7-17.8 KB) are served as one block size, so any cached
/// block serves any of them.
constexpr std::size_t smallest_record = 16 * 1024;
constexpr std::size_t block_size = 20 * 1024;
/// A thread's connections with a record under way at the same moment: one or two, mostly.
constexpr std::size_t blocks_kept = 8;

/// The blocks a thread has given back, which go back to malloc when the thread ends; a block
/// given back after that (OpenSSL's own clean-up at exit) goes straight to free().
struct Blocks {
  std::array<void*, blocks_kept> kept{};
  std::size_t count = 0;
  bool gone = false;

  ~Blocks() {
    for (std::size_t i = 0; i < count; ++i) std::free(kept[i]);
    count = 0;
    gone = true;
  }
};

thread_local Blocks blocks;

void* allocate(std::size_t size, const char* /*file*/, int /*line*/) {
  if (size < smallest_record || size > block_size) return std::malloc(size);
  if (blocks.count > 0) return blocks.kept[--blocks.count];
  return std::malloc(block_size);
}

void* reallocate(void* block, std::size_t size, const char* /*file*/, int /*line*/) {
  return std::realloc(block, size);
}

/// A block is kept if it is one of ours by its size: malloc's usable size of a block_size
/// allocation (a block from anywhere that large serves just as well).
void release(void* block, const char* /*file*/, int /*line*/) {
  if (block == nullptr) return;
  const auto usable = malloc_usable_size(block);
  if (!blocks.gone && usable >= block_size && usable < block_size + 4096 &&
      blocks.count < blocks_kept) {
    blocks.kept[blocks.count++] = block;
    return;
  }
  std::free(block);
}

}  // namespace

bool cache_tls_record_buffers() {
  return CRYPTO_set_mem_functions(allocate, reallocate, release) == 1;
}

}  // namespace stampede::client
