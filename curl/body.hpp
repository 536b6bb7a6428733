// Request bodies from -d, --data-binary, --data-raw, --data-urlencode and --json, as curl joins
// them.
#pragma once

#include <string>
#include <vector>

#include "curl/command.hpp"
#include "curl/files.hpp"

namespace stampede::curl {

/// The case of the hex digits in `%XX`.
enum class Hex : unsigned char { upper, lower };

/// curl's URL encoding for --data-urlencode: letters, digits and `-._~` stay, a space becomes
/// `+`, every other byte `%XX`.
std::string url_encode(std::string_view text, Hex hex_case = Hex::upper);

/// One --data-urlencode (`Hex::upper`) or --url-query (`Hex::lower`, as curl 7.88 writes it)
/// argument: `=content`, `name=content`, `@file`, `name@file` or plain `content`; the content
/// is encoded, the name is sent as written.
std::string url_encoded_piece(const Argument& argument, const Files& files, Hex hex_case);

/// The data pieces, each resolved (files read, encoded) and joined: `&` before every piece but
/// the first, except before a --json piece. Relative files are found through `files`.
std::string join_data(const std::vector<DataArgument>& data, const Files& files);

}  // namespace stampede::curl
