// The commands' docs in one list, and the names program_options knows a flag's spellings by.
#include "cmd/flag_doc.hpp"

#include <algorithm>

namespace stampede::cmd {
namespace {

/// Each spelling in "-c, --concurrency", without its dashes.
std::vector<std::string_view> spellings(std::string_view names) {
  std::vector<std::string_view> words;
  while (!names.empty()) {
    const auto comma = names.find(',');
    auto word = names.substr(0, comma);
    names = comma == std::string_view::npos ? std::string_view{} : names.substr(comma + 1);
    word.remove_prefix(std::min(word.find_first_not_of(" -"), word.size()));
    if (!word.empty()) words.push_back(word);
  }
  return words;
}

}  // namespace

std::vector<CommandDoc> command_docs() {
  return {load_command_doc(), serve_command_doc(), report_command_doc(), compare_command_doc(),
          shards_command_doc()};
}

const CommandDoc* find_command(std::string_view name) {
  static const auto docs = command_docs();
  for (const auto& command : docs) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

bool spelled(std::string_view names, std::string_view name) {
  const auto words = spellings(names);
  return std::find(words.begin(), words.end(), name) != words.end();
}

std::string long_name(std::string_view names) {
  const auto words = spellings(names);
  const auto longest = std::max_element(words.begin(), words.end(),
                                        [](auto a, auto b) { return a.size() < b.size(); });
  return longest == words.end() ? std::string() : std::string(*longest);
}

std::string option_name(std::string_view names) {
  auto name = long_name(names);
  for (const auto word : spellings(names)) {
    if (word.size() == 1 && word != name) name += "," + std::string(word);
  }
  return name;
}

}  // namespace stampede::cmd
