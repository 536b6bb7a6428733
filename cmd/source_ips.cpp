// parse_source_ips(): ranges, blocks and lists of addresses, counted before any is listed.
#include "cmd/source_ips.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "cmd/limits.hpp"
#include "cmd/options.hpp"

namespace stampede::cmd {

namespace {

namespace ip = boost::asio::ip;

/// An address as a number, so that ranges and blocks are arithmetic; IPv6 needs 128 bits.
using Number = unsigned __int128;

/// One address of a spec: its family, its number and (IPv6) its scope, kept for the range.
struct Numbered {
  bool v6 = false;
  Number value = 0;
  unsigned long scope = 0;
};

const std::string example = "such as 127.0.0.2-127.0.0.9, 10.0.0.0/24 or 10.0.0.5,10.0.0.7";

[[noreturn]] void refuse_source_ips(const std::string& what) {
  throw UsageError("--source-ips " + what);
}

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

Numbered numbered(std::string_view text) {
  boost::system::error_code error;
  const auto address = ip::make_address(std::string(text), error);
  if (error)
    refuse_source_ips("'" + std::string(text) + "' is not an IP address (" + example + ")");
  if (address.is_v4()) return {false, address.to_v4().to_uint(), 0};
  Number value = 0;
  for (const auto byte : address.to_v6().to_bytes()) value = (value << 8) | byte;
  return {true, value, address.to_v6().scope_id()};
}

ip::address address_of(const Numbered& n) {
  if (!n.v6) return ip::make_address_v4(static_cast<ip::address_v4::uint_type>(n.value));
  ip::address_v6::bytes_type bytes{};
  auto value = n.value;
  for (auto byte = bytes.rbegin(); byte != bytes.rend(); ++byte, value >>= 8) {
    *byte = static_cast<unsigned char>(value & 0xff);
  }
  return ip::make_address_v6(bytes, n.scope);
}

std::string family(bool v6) { return v6 ? "IPv6" : "IPv4"; }

[[noreturn]] void refuse_too_many(std::string_view item) {
  refuse_source_ips(
      "'" + std::string(item) + "' makes more than " +
      std::to_string(limits::max_source_addresses) +
      " addresses (each adds a port range: a few are plenty; use a smaller range or block)");
}

/// Appends `count` addresses from `first` on, refusing before the total passes the maximum.
void append(std::vector<ip::address>& out, Numbered first, Number count, std::string_view item) {
  if (count > limits::max_source_addresses - out.size()) refuse_too_many(item);
  for (Number i = 0; i < count; ++i, ++first.value) out.push_back(address_of(first));
}

void append_range(std::vector<ip::address>& out, std::string_view item, std::size_t dash) {
  const auto from = trimmed(item.substr(0, dash));
  const auto to = trimmed(item.substr(dash + 1));
  const auto low = numbered(from);
  const auto high = numbered(to);
  if (low.v6 != high.v6) {
    refuse_source_ips("'" + std::string(item) + "' goes from an " + family(low.v6) +
                      " address to an " + family(high.v6) + " one (give both ends in one family)");
  }
  if (high.value < low.value) {
    refuse_source_ips("'" + std::string(item) + "' is reversed (give the lower address first: " +
                      std::string(to) + "-" + std::string(from) + ")");
  }
  append(out, low, high.value - low.value + 1, item);
}

void append_block(std::vector<ip::address>& out, std::string_view item, std::size_t slash) {
  auto network = numbered(trimmed(item.substr(0, slash)));
  const auto bits = network.v6 ? 128 : 32;
  const auto length_text = trimmed(item.substr(slash + 1));
  int length = -1;
  const auto end = length_text.data() + length_text.size();
  if (std::from_chars(length_text.data(), end, length).ptr != end || length < 0 || length > bits) {
    refuse_source_ips("'" + std::string(item) + "': the prefix length after / must be 0 to " +
                      std::to_string(bits) + " for an " + family(network.v6) + " block");
  }
  const auto host_bits = bits - length;
  const Number mask = host_bits >= 128 ? ~Number{0} : (Number{1} << host_bits) - 1;
  if ((network.value & mask) != 0) {
    network.value &= ~mask;
    refuse_source_ips("'" + std::string(item) + "' has host bits set (the block is " +
                      address_of(network).to_string() + "/" + std::to_string(length) + ")");
  }
  if (host_bits > 17) refuse_too_many(item);  // before a count that could overflow
  // Host addresses only: not an IPv4 block's network and broadcast addresses, nor an IPv6
  // block's Subnet-Router anycast address; blocks of one or two addresses have no such.
  const Number skip_first = host_bits >= 2 ? 1 : 0;
  const Number skip_last = host_bits >= 2 && !network.v6 ? 1 : 0;
  network.value += skip_first;
  append(out, network, mask + 1 - skip_first - skip_last, item);
}

/// What a connection cannot bind to: no one address (0.0.0.0, ::), nor a group's.
void check_usable(const ip::address& address) {
  const bool broadcast = address.is_v4() && address.to_v4() == ip::address_v4::broadcast();
  if (address.is_unspecified() || address.is_multicast() || broadcast) {
    refuse_source_ips("includes " + address.to_string() +
                      ", which is not a source address (give addresses of this machine, " +
                      example + ")");
  }
}

/// One family for all, each address once: the port arithmetic counts distinct addresses.
void check_list(const std::vector<ip::address>& addresses) {
  for (const auto& address : addresses) {
    check_usable(address);
    if (address.is_v6() != addresses.front().is_v6()) {
      refuse_source_ips(
          "mixes IPv4 and IPv6 addresses (a connection binds an address of its server's "
          "family: give one family)");
    }
  }
  auto sorted = addresses;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end()) {
    refuse_source_ips("names " + twice->to_string() + " twice (give each address once)");
  }
}

}  // namespace

std::vector<ip::address> parse_source_ips(std::string_view spec) {
  std::vector<ip::address> addresses;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const auto comma = std::min(spec.find(',', start), spec.size());
    const auto item = trimmed(spec.substr(start, comma - start));
    if (item.empty())
      refuse_source_ips("has an empty item in '" + std::string(spec) + "' (" + example + ")");
    if (const auto slash = item.find('/'); slash != std::string_view::npos) {
      append_block(addresses, item, slash);
    } else if (const auto dash = item.find('-'); dash != std::string_view::npos) {
      append_range(addresses, item, dash);
    } else {
      append(addresses, numbered(item), 1, item);
    }
    start = comma + 1;
  }
  check_list(addresses);
  return addresses;
}

}  // namespace stampede::cmd
