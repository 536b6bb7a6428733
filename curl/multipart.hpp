// -F / --form-string: a multipart/form-data body laid out byte for byte as curl 7.88 lays it out.
#pragma once

#include <string>
#include <vector>

#include "curl/command.hpp"
#include "curl/files.hpp"

namespace stampede::curl {

/// A multipart body and the boundary that separates its parts.
struct Multipart {
  std::string boundary;  ///< without the leading `--`
  std::string body;
};

/// Builds the body of `parts`: `name=value`, `name=@file[;type=T][;filename=F]`,
/// `name=<file[;type=T]`; --form-string parts are taken as written. `disposition` is
/// `form-data` (or `attachment` under another multipart type). Throws ParseError.
Multipart make_multipart(const std::vector<FormArgument>& parts, const Files& files,
                         std::string_view disposition = "form-data");

}  // namespace stampede::curl
