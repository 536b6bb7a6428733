// The small servers' parts: HOST:PORT read as an IP address and a port, then bound (or a usage
// error); a request's head read under a deadline; an answer that closes the connection.
#include "cmd/small_http.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>

#include <stdexcept>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

namespace net = boost::asio;
using net::ip::tcp;

tcp::endpoint endpoint_of(const std::string& flag, const std::string& address,
                          unsigned short example) {
  const auto colon = address.rfind(':');
  const auto refuse = [&](const std::string& why) {
    const auto port = std::to_string(example);
    throw UsageError(flag + " " + address + ": " + why + " (give HOST:PORT, as 127.0.0.1:" + port +
                     " or [::1]:" + port + ")");
  };
  if (colon == std::string::npos) refuse("no port");
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "127.0.0.1";
  const std::string port_text = address.substr(colon + 1);
  unsigned long port = 0;
  try {
    std::size_t used = 0;
    port = std::stoul(port_text, &used);
    if (used != port_text.size() || port > 65535) refuse("a port from 0 to 65535");
  } catch (const std::logic_error&) {
    refuse("a port from 0 to 65535");
  }
  boost::system::error_code error;
  const auto ip = net::ip::make_address(host, error);
  if (error) refuse("'" + host + "' is not an IP address");
  return {ip, static_cast<unsigned short>(port)};
}

}  // namespace

void listen_on(tcp::acceptor& acceptor, const std::string& flag, const std::string& address,
               unsigned short port) {
  const auto endpoint = endpoint_of(flag, address, port);
  boost::system::error_code error;
  acceptor.open(endpoint.protocol(), error);
  if (!error) acceptor.set_option(tcp::acceptor::reuse_address(true), error);
  if (!error) acceptor.bind(endpoint, error);
  if (!error) acceptor.listen(net::socket_base::max_listen_connections, error);
  if (error) throw UsageError(flag + " " + address + ": cannot listen (" + error.message() + ")");
}

std::string authority_of(const tcp::acceptor& acceptor) {
  const auto endpoint = acceptor.local_endpoint();
  const auto address = endpoint.address();
  const auto host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return host + ":" + std::to_string(endpoint.port());
}

net::awaitable<std::string> read_request_head(tcp::socket& socket) {
  net::steady_timer deadline(socket.get_executor(), std::chrono::seconds(5));
  deadline.async_wait([&socket](boost::system::error_code error) {
    if (!error) socket.close();
  });
  net::streambuf request(8192);
  auto [error, length] = co_await net::async_read_until(socket, request, "\r\n\r\n",
                                                        net::as_tuple(net::use_awaitable));
  deadline.cancel();
  if (error) co_return std::string();
  co_return std::string(net::buffers_begin(request.data()),
                        net::buffers_begin(request.data()) + static_cast<std::ptrdiff_t>(length));
}

std::string plain_response(const std::string& status, const std::string& type,
                           const std::string& body) {
  return "HTTP/1.1 " + status + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace stampede::cmd
