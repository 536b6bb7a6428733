// A thread's cache of OpenSSL's record buffers: SSL_MODE_RELEASE_BUFFERS without a malloc a record.
#pragma once

namespace stampede::client {

/// Routes OpenSSL's allocations through a cache, on each thread, of a few blocks the size of a
/// TLS record buffer. False when OpenSSL had already allocated, so that the cache is not in use.
///
/// Why: each TLS connection frees its two 17 KB record buffers whenever no record is under way
/// (SSL_MODE_RELEASE_BUFFERS), so that an idle or paced connection holds none. glibc's malloc
/// serves blocks that large from its bins, not its thread cache: about 1,400 instructions of a
/// keep-alive request's 22,000 went to taking and giving back the same two blocks. No library
/// offers a cache for them (OpenSSL 1.0's free list is gone); this keeps at most 8 a thread.
bool cache_tls_record_buffers();

}  // namespace stampede::client
