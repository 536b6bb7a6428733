// --source-ips: the local addresses connections bind to, so one server takes more connections.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <string_view>
#include <vector>

namespace stampede::cmd {

/// Parses --source-ips: a comma list of ranges `A-B`, blocks `A/len` and single addresses, all
/// IPv4 or all IPv6. A block gives its host addresses: an IPv4 one without its network and
/// broadcast addresses (unless /31 or /32), an IPv6 one without its first (Subnet-Router
/// anycast, RFC 4291) unless /127 or /128. In the order given; at most
/// limits::max_source_addresses. Throws UsageError naming the flag and the fix.
std::vector<boost::asio::ip::address> parse_source_ips(std::string_view spec);

}  // namespace stampede::cmd
