// TlsSocket: the handshake, reads, writes and errors of OpenSSL driven on the socket itself.
#include "server/client/tls_socket.hpp"

#include <openssl/err.h>
#include <openssl/x509_vfy.h>

#include <sys/socket.h>
#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <memory>
#include <utility>

namespace stampede::client {

namespace {

/// The socket BIO OpenSSL's SSL_set_fd() would make writes with write(2), which raises SIGPIPE
/// on a connection the server has reset, and SIGPIPE kills the run. This one sends with
/// MSG_NOSIGNAL, as Asio's own sends do, so such a write fails with EPIPE, a failure of that
/// connection alone; and it leaves SIGPIPE's disposition to the process (`stampede | head`).
/// Its data is the TlsSocket's TlsWire (the descriptor, which the socket closes, not the BIO).
TlsWire& wire(BIO* bio) { return *static_cast<TlsWire*>(BIO_get_data(bio)); }

/// Marks `bio` to be retried when `n` is a would-block failure, as a socket BIO does; errno is
/// left as send() or recv() set it, for SSL_ERROR_SYSCALL.
int retried(BIO* bio, ssize_t n, void (*mark)(BIO*)) {
  BIO_clear_retry_flags(bio);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) mark(bio);
  return static_cast<int>(n);
}

int bio_write(BIO* bio, const char* data, int size) {
  const auto n = ::send(wire(bio).descriptor, data, static_cast<std::size_t>(size), MSG_NOSIGNAL);
  return retried(bio, n, [](BIO* b) { BIO_set_retry_write(b); });
}

/// A recv() shorter than asked emptied the socket: until the caller waits for it again, a read
/// would find nothing, so the next one would-blocks without the syscall. (With read-ahead
/// OpenSSL asks for a whole buffer, so a short read is the common case.)
int bio_read(BIO* bio, char* data, int size) {
  auto& state = wire(bio);
  if (state.drained) {
    errno = EAGAIN;
    return retried(bio, -1, [](BIO* b) { BIO_set_retry_read(b); });
  }
  const auto n = ::recv(state.descriptor, data, static_cast<std::size_t>(size), 0);
  if (n == 0) BIO_set_flags(bio, BIO_FLAGS_IN_EOF);  // so that OpenSSL tells a truncation apart
  state.drained = n > 0 && n < size;
  return retried(bio, n, [](BIO* b) { BIO_set_retry_read(b); });
}

/// A flush succeeds (there is nothing to flush) and EOF says whether recv() saw one; OpenSSL's
/// other queries (kTLS, peer addresses, pending bytes) read a 0 as "not offered".
long bio_ctrl(BIO* bio, int command, long /*number*/, void* /*pointer*/) {
  if (command == BIO_CTRL_FLUSH) return 1;
  if (command == BIO_CTRL_EOF) return BIO_test_flags(bio, BIO_FLAGS_IN_EOF) != 0 ? 1 : 0;
  return 0;
}

const BIO_METHOD* socket_method() {
  static BIO_METHOD* const method = [] {
    auto* made = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR,
                              "stampede socket");
    if (made != nullptr) {
      BIO_meth_set_write(made, bio_write);
      BIO_meth_set_read(made, bio_read);
      BIO_meth_set_ctrl(made, bio_ctrl);
    }
    return made;
  }();
  return method;
}

/// A BIO on `wire` for SSL_set_bio(); nullptr when OpenSSL could not make one.
BIO* socket_bio(TlsWire& wire) {
  const auto* method = socket_method();
  BIO* bio = method != nullptr ? BIO_new(method) : nullptr;
  if (bio == nullptr) return nullptr;
  BIO_set_data(bio, &wire);
  BIO_set_init(bio, 1);
  return bio;
}

/// Whether this thread's OpenSSL error queue may hold an error: after a call that failed (not
/// one that would block, about once a request, which queues nothing), and after the calls that
/// set up a connection. Looking at the queue instead
/// (ERR_peek_error(), a thread-local lookup behind OPENSSL_init_crypto()) cost about 500
/// instructions of a keep-alive request's 22,000 (docs/benchmarks.md, round three).
thread_local bool errors_maybe_queued = true;

/// At most what one SSL_read or SSL_write takes (an int).
int clamp(std::size_t n) { return static_cast<int>(std::min<std::size_t>(n, INT_MAX)); }

/// The first error OpenSSL queued, as Asio's stream reports it (its category, ERR_get_error's
/// value); empty if none.
boost::system::error_code queued_error() {
  const auto code = ERR_get_error();
  if (code == 0) return {};
  return {static_cast<int>(code), net::error::get_ssl_category()};
}

}  // namespace

TlsSocket::~TlsSocket() {
  if (ssl_ != nullptr) SSL_free(ssl_);  // the socket, closed after it, owns the descriptor
}

TlsSocket::TlsSocket(TlsSocket&& other) noexcept
    : socket_(std::move(other.socket_)),
      wire_(other.wire_),
      ssl_(std::exchange(other.ssl_, nullptr)),
      errno_(other.errno_),
      fatal_(other.fatal_),
      read_wait_(other.read_wait_),
      write_wait_(other.write_wait_),
      read_emptied_(other.read_emptied_) {
  if (ssl_ != nullptr) BIO_set_data(SSL_get_rbio(ssl_), &wire_);  // one BIO reads and writes
}

net::awaitable<std::optional<OpenFailure>> TlsSocket::open(const ClientSetup& setup,
                                                           TlsSession& session) {
  const auto failure = co_await connect_socket(socket_, setup);
  if (failure) co_return failure;
  const auto shake_error = co_await shake_hands(setup, session);
  if (shake_error) co_return OpenFailure{Phase::handshake, shake_error};
  co_return std::nullopt;
}

/// SSL_connect until it is done, waiting for the socket whenever it needs it.
net::awaitable<boost::system::error_code> TlsSocket::shake_hands(const ClientSetup& setup,
                                                                 TlsSession& session) {
  if (const auto error = prepare(setup)) co_return error;
  session.offer(ssl_);
  for (;;) {
    // Closed after the wait completed, before this resumed: as if closed under the wait.
    if (!socket_.is_open()) co_return net::error::operation_aborted;
    wire_.drained = false;  // the wait says it may have filled since
    const int result = call([this] { return SSL_connect(ssl_); });
    if (result == 1) co_return boost::system::error_code();
    auto wait = Socket::wait_read;
    const auto error = failure(result, wait);
    if (error != net::error::would_block) co_return error;
    const auto [wait_error] = co_await socket_.async_wait(wait, as_tuple);
    if (wait_error) co_return wait_error;  // the watchdog closed the socket: operation_aborted
  }
}

/// The SSL object on the socket, told whom it talks to: what open_stream() tells Asio's stream
/// (SNI, host_name_verification), here through the verify parameters: the same checks
/// (X509_check_host, X509_check_ip_asc on the leaf certificate), the same failure
/// (certificate verify failed), and only when the context verifies at all.
boost::system::error_code TlsSocket::prepare(const ClientSetup& setup) {
  ERR_clear_error();
  ssl_ = SSL_new(setup.tls->native_handle());
  if (ssl_ == nullptr) return queued_error();
  // Each buffer is freed once no record is under way in it; a partial write is a record's worth
  // taken, and its rest may be written again from wherever it then is (our output may move).
  SSL_set_mode(ssl_, SSL_MODE_RELEASE_BUFFERS | SSL_MODE_ENABLE_PARTIAL_WRITE |
                         SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  errors_maybe_queued = true;  // whatever the calls below queued goes before the first SSL_connect
  // One read() takes every record that arrived, not a record's header and then its body.
  SSL_set_read_ahead(ssl_, 1);
  // HTTP/2 forbids renegotiation (RFC 9113, 9.2.1), the usual reason a write would have to read;
  // an HTTP/1.1 server may still ask for it (a client certificate for one path, in TLS 1.2).
  if (setup.protocol == model::Protocol::http2) SSL_set_options(ssl_, SSL_OP_NO_RENEGOTIATION);
  const bool address = address_literal(setup.host);
  bool named = address || SSL_set_tlsext_host_name(ssl_, setup.host.c_str()) == 1;
  if (named && SSL_get_verify_mode(ssl_) != SSL_VERIFY_NONE) {
    auto* param = SSL_get0_param(ssl_);
    named = address ? X509_VERIFY_PARAM_set1_ip_asc(param, setup.host.c_str()) == 1
                    : X509_VERIFY_PARAM_set1_host(param, setup.host.c_str(), 0) == 1;
  }
  wire_.descriptor = socket_.native_handle();
  BIO* bio = named ? socket_bio(wire_) : nullptr;
  if (bio == nullptr) {
    const auto error = queued_error();
    return error ? error : net::ssl::error::unspecified_system_error;
  }
  SSL_set_bio(ssl_, bio, bio);  // ssl_ owns it now
  return {};
}

std::size_t TlsSocket::read_some(net::mutable_buffer buffer, boost::system::error_code& error) {
  if (!begin(error)) return 0;
  auto* data = static_cast<char*>(buffer.data());
  read_emptied_ = false;
  const auto n = transfer(
      buffer.size(), read_wait_, error,
      [&](std::size_t done) { return SSL_read(ssl_, data + done, clamp(buffer.size() - done)); },
      // Nothing more without a wait: the socket came back short and OpenSSL holds nothing read.
      // One more SSL_read would only say so, at the cost of a failed call's error handling.
      // (Kept for read_arrived(): asked after each read that went through, the last says.)
      [&] { return read_emptied_ = wire_.drained && SSL_has_pending(ssl_) == 0; });
  if (n > 0 && error == net::error::would_block) error = {};
  return n;
}

std::size_t TlsSocket::write_some(net::const_buffer data, boost::system::error_code& error) {
  if (!begin(error)) return 0;
  const auto* bytes = static_cast<const char*>(data.data());
  return transfer(
      data.size(), write_wait_, error,
      [&](std::size_t done) { return SSL_write(ssl_, bytes + done, clamp(data.size() - done)); },
      [] { return false; });
}

/// Calls `step(done)` (an SSL_read or SSL_write of what is left after `done` bytes; a partial
/// write returns after each record) until `size` bytes went through, it fails, or `over()` says
/// a step that went through was the last to: how many went through, and in `error` why it
/// stopped (`wait` says what a would_block waits for).
template <class Step, class Over>
std::size_t TlsSocket::transfer(std::size_t size, Socket::wait_type& wait,
                                boost::system::error_code& error, Step step, Over over) {
  std::size_t done = 0;
  while (done < size) {
    const int n = call([&] { return step(done); });
    if (n <= 0) {
      error = failure(n, wait);
      remember(error);
      break;
    }
    done += static_cast<std::size_t>(n);
    if (over()) break;
  }
  return done;
}

net::awaitable<std::tuple<boost::system::error_code, std::size_t>> TlsSocket::write_all(
    net::const_buffer data) {
  boost::system::error_code error;
  auto written = write_some(data, error);
  while (error == net::error::would_block) {
    std::tie(error) = co_await socket_.async_wait(write_wait_, as_tuple);
    if (!error) written += write_some(data + written, error);
  }
  co_return std::tuple(error, written);
}

net::awaitable<std::tuple<boost::system::error_code, std::size_t>> TlsSocket::read_arrived(
    net::mutable_buffer buffer) {
  // After a read that emptied the socket, with a request written since, the answer is not
  // there yet, mostly: an SSL_read now would only say so (about 800 instructions, with its
  // error's lookup), so the socket is waited for first. A wait for bytes already there ends at
  // the loop's next turn.
  boost::system::error_code error = net::error::would_block;
  std::size_t n = 0;
  if (!read_emptied_ || fatal_) n = read_some(buffer, error);
  read_emptied_ = false;
  while (error == net::error::would_block) {
    std::tie(error) = co_await socket_.async_wait(read_wait_, as_tuple);
    if (!error) n = read_some(buffer, error);
  }
  if (n > 0) error = {};  // remembered (or, for close_notify, read again) by the next read
  co_return std::tuple(error, n);
}

void TlsSocket::notify_close() {
  boost::system::error_code error;
  if (ssl_ == nullptr || !begin(error)) return;
  (void)call([this] { return SSL_shutdown(ssl_); });  // what it would wait for is not waited for
  ERR_clear_error();
  errors_maybe_queued = false;
}

net::mutable_buffer TlsSocket::scratch() {
  constexpr std::size_t size = 16 * 1024;
  thread_local const std::unique_ptr<char[]> buffer(new char[size]);
  return {buffer.get(), size};
}

bool TlsSocket::alpn_selected_h2() const { return ssl_ != nullptr && selected_h2(ssl_); }

/// Starts a read, write or close: false, with `error` set, when OpenSSL must not be called: the
/// socket was closed under us (OpenSSL would use whatever descriptor now has its number), or a
/// call failed for good (no I/O after a fatal error, OpenSSL says; a later call would fail with
/// an empty error queue, which reads as a mere EOF), whose error every later call then repeats.
/// Else the socket may have filled since the last step, which may have drained it.
bool TlsSocket::begin(boost::system::error_code& error) {
  error = socket_.is_open() ? fatal_ : net::error::bad_descriptor;
  wire_.drained = false;
  return !error;
}

/// Keeps a read's or write's error if it is fatal: any but would_block and eof (the server's
/// close_notify, after which we may still write).
void TlsSocket::remember(const boost::system::error_code& error) {
  if (error != net::error::would_block && error != net::error::eof) fatal_ = error;
}

/// Calls OpenSSL with a clear error queue, as Asio's engine does, so that failure() reads this
/// call's errors only (and SSL_get_error() does not take an old error for this call's), and
/// notes errno for it. The queue is cleared only when something may have queued an error since.
template <class Call>
int TlsSocket::call(Call call) {
  if (errors_maybe_queued) {
    ERR_clear_error();
    errors_maybe_queued = false;
  }
  errno = 0;
  const int result = call();
  errno_ = errno;
  return result;
}

/// What a call that returned `result` means, as Asio's stream says it: would_block (the socket
/// is to be waited for as `wait` then says); eof for the server's close_notify; a TCP EOF
/// without one is stream_truncated (OpenSSL 3's "unexpected eof while reading", which Asio's
/// stream never lets OpenSSL see); a socket error as the socket's own (connection_reset, ...);
/// any other, OpenSSL's first queued error in Asio's SSL category (so a certificate that did
/// not verify reads as SSL_R_CERTIFICATE_VERIFY_FAILED, for the --insecure hint).
boost::system::error_code TlsSocket::failure(int result, Socket::wait_type& wait) const {
  switch (SSL_get_error(ssl_, result)) {
    case SSL_ERROR_WANT_READ:
      wait = Socket::wait_read;
      return net::error::would_block;
    case SSL_ERROR_WANT_WRITE:
      wait = Socket::wait_write;
      return net::error::would_block;
    case SSL_ERROR_ZERO_RETURN:
      return net::error::eof;
    case SSL_ERROR_SSL:
    case SSL_ERROR_SYSCALL: {
      errors_maybe_queued = true;
      const auto code = ERR_peek_error();
      if (ERR_GET_LIB(code) == ERR_LIB_SSL &&
          ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
        return net::ssl::error::stream_truncated;
      }
      if (ERR_SYSTEM_ERROR(code)) {  // errno, queued: the socket's error, as for errno_
        return {ERR_GET_REASON(code), boost::system::system_category()};
      }
      if (const auto error = queued_error()) return error;
      if (errno_ != 0) return {errno_, boost::system::system_category()};
      return net::ssl::error::stream_truncated;  // a syscall's EOF (OpenSSL 1.1's way)
    }
    default:
      errors_maybe_queued = true;
      return net::ssl::error::unspecified_system_error;
  }
}

net::awaitable<std::optional<OpenFailure>> open_stream(std::optional<TlsSocket>& stream,
                                                       net::any_io_executor executor,
                                                       const ClientSetup& setup,
                                                       TlsSession& session) {
  stream.emplace(executor);
  co_return co_await stream->open(setup, session);
}

}  // namespace stampede::client
