// open_non_blocking(): a TCP socket opened as Asio's open() and non_blocking(true) would, with
// Asio's own state set directly where its interface would make a system call for it.
//
// Asio (Boost 1.81's, as Debian ships it) keeps that state where no public call reaches it
// without a system call: its flags in the socket's implementation (a protected member), and
// whether its next read is tried first in the epoll reactor's per-descriptor state (a private
// member). Both are named below; a Boost whose members differ does not compile here.
#include "server/client/open_socket.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/detail/epoll_reactor.hpp>
#include <boost/asio/detail/socket_ops.hpp>
#include <cerrno>
#include <type_traits>

namespace stampede::client {

namespace net = boost::asio;

namespace {

using Socket = net::ip::tcp::socket;

static_assert(std::is_same_v<net::detail::reactor, net::detail::epoll_reactor>,
              "Asio's reactor is epoll's (not io_uring's, nor select's)");

/// The socket's implementation, protected in basic_socket: a derived class may name it.
struct SocketImplementation : Socket {
  using Socket::impl_;
};

/// The reactor's "try the next read first" flags, private to its descriptor state. An explicit
/// instantiation's arguments are not access-checked ([temp.spec.general]), so the one below
/// hands the member's pointer over before main() runs.
struct ReadTriesFirst {
  using Member =
      bool (net::detail::epoll_reactor::descriptor_state::*)[net::detail::epoll_reactor::max_ops];
  static inline Member member = nullptr;
};
template <ReadTriesFirst::Member Pointer>
struct NameReadTriesFirst {
  static inline const bool named = (ReadTriesFirst::member = Pointer, true);
};
template struct NameReadTriesFirst<&net::detail::epoll_reactor::descriptor_state::try_speculative_>;

}  // namespace

void open_non_blocking(Socket& socket, const net::ip::tcp& protocol,
                       boost::system::error_code& error) {
  const int fd =
      ::socket(protocol.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol.protocol());
  if (fd < 0) {
    error = {errno, boost::system::system_category()};
    return;
  }
  socket.assign(protocol, fd, error);  // registers it with epoll, before anything can arrive
  if (error) {
    ::close(fd);
    return;
  }
  auto& implementation = (socket.*&SocketImplementation::impl_).get_implementation();
  // Non-blocking as Asio's non_blocking(true) leaves it. assign() marks a socket "possibly a
  // dup", which close() then takes out of epoll by hand; this one is no dup, and the kernel
  // takes it out as it closes.
  namespace ops = net::detail::socket_ops;
  implementation.state_ = static_cast<ops::state_type>((implementation.state_ | ops::non_blocking) &
                                                       ~ops::possible_dup);
  // The first read waits for epoll's word: epoll had the socket before anything could arrive,
  // so it will say when something does, and any word from it makes Asio try first again.
  (implementation.reactor_data_->*ReadTriesFirst::member)[net::detail::epoll_reactor::read_op] =
      false;
}

}  // namespace stampede::client
