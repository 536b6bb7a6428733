// stampede's version, kept in one place for --version, User-Agent and the target's Server header.
#pragma once

namespace stampede::model {

/// The release number.
inline constexpr const char* version = "0.1.0";
/// Sent as User-Agent unless the user gives one.
inline constexpr const char* user_agent = "stampede/0.1.0";

}  // namespace stampede::model
