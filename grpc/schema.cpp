// Loading .proto files with libprotoc's parser into a descriptor pool, and finding a method there.
#include "grpc/schema.hpp"

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor_database.h>
#include <google/protobuf/dynamic_message.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace stampede::grpc {

namespace pb = google::protobuf;

namespace {

/// Keeps the first error protoc's parser or the pool reports, worded as protoc prints it
/// ("file:line:column: message", the file as found on disk), and counts the others.
class FirstError : public pb::compiler::MultiFileErrorCollector {
 public:
  explicit FirstError(pb::compiler::DiskSourceTree& tree) : tree_(tree) {}

  void AddError(const std::string& filename, int line, int column,
                const std::string& message) override {
    if (count_++ > 0) return;
    std::string file = filename;
    tree_.VirtualFileToDiskFile(filename, &file);
    first_ = file + ":";
    // protoc's own wording: zero-based positions shown one-based; line -1 is the whole file.
    if (line >= 0) first_ += std::to_string(line + 1) + ":" + std::to_string(column + 1) + ":";
    first_ += " " + message;
  }

  /// The first error, and how many followed it; empty when there was none.
  [[nodiscard]] std::string text() const {
    if (count_ <= 1) return first_;
    return first_ + " (and " + std::to_string(count_ - 1) + " more errors)";
  }

 private:
  pb::compiler::DiskSourceTree& tree_;
  std::string first_;
  int count_ = 0;
};

/// "/package.Service/Method" split at its slashes: {"package.Service", "Method"}.
std::pair<std::string, std::string> split_path(std::string_view path) {
  const auto slash = path.find('/', 1);
  if (path.size() < 4 || path[0] != '/' || slash == std::string_view::npos || slash == 1 ||
      slash + 1 == path.size() || path.find('/', slash + 1) != std::string_view::npos) {
    throw SchemaError("malformed gRPC method \"" + std::string(path) +
                      "\": want /package.Service/Method");
  }
  return {std::string(path.substr(1, slash - 1)), std::string(path.substr(slash + 1))};
}

}  // namespace

/// Destroyed in reverse: the factory's prototypes before the pool, the pool before the
/// databases it reads, those before the source tree and the collector they report to.
struct Method::Loaded {
  Loaded() {
    database.RecordErrorsTo(&errors);
    pool.EnforceWeakDependencies(true);  // as protoc's Importer does
  }

  /// Compiles each of the source's files (and what they import) into the pool.
  void compile(const ProtoSource& source);
  /// Finds the method named by `path` in the pool, or says what the files have.
  void find(std::string_view path);

  pb::compiler::DiskSourceTree source_tree;
  FirstError errors{source_tree};
  /// google/protobuf/*.proto, compiled into libprotobuf: no -dev package needed to import them.
  pb::DescriptorPoolDatabase well_known{*pb::DescriptorPool::generated_pool()};
  pb::compiler::SourceTreeDescriptorDatabase database{&source_tree, &well_known};
  pb::DescriptorPool pool{&database, database.GetValidationErrorCollector()};
  pb::DynamicMessageFactory factory{&pool};
  std::vector<std::string> file_names;           ///< the --proto files, as the user wrote them
  std::vector<const pb::FileDescriptor*> files;  ///< and compiled
  const pb::MethodDescriptor* method = nullptr;
  /// Taken once: GetPrototype() locks the factory, and responses are decoded on every thread.
  const pb::Message* request = nullptr;
  const pb::Message* response = nullptr;
};

namespace {

/// Maps the import paths, then each file's own directory, to the root of the source tree.
void map_paths(pb::compiler::DiskSourceTree& tree, const ProtoSource& source) {
  for (const auto& dir : source.import_paths) tree.MapPath("", dir);
  for (const auto& file : source.files) {
    tree.MapPath("", std::filesystem::path(file).parent_path().string());
  }
}

/// Throws unless `file` can be read (an error from the parser would say less).
void check_readable(const std::string& file) {
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored)) {
    throw SchemaError("cannot read " + file + ": " + std::strerror(EISDIR));
  }
  std::FILE* opened = std::fopen(file.c_str(), "r");
  if (opened == nullptr) throw SchemaError("cannot read " + file + ": " + std::strerror(errno));
  std::fclose(opened);
}

/// The name `file` has in the source tree, which its imports and errors use.
std::string virtual_name(pb::compiler::DiskSourceTree& tree, const std::string& file) {
  check_readable(file);
  std::string name;
  std::string shadowing;
  switch (tree.DiskFileToVirtualFile(file, &name, &shadowing)) {
    case pb::compiler::DiskSourceTree::SUCCESS:
      return name;
    case pb::compiler::DiskSourceTree::SHADOWED: {
      // The same file, spelled otherwise in an import path (relative there, absolute here).
      std::error_code ignored;
      if (std::filesystem::equivalent(file, shadowing, ignored)) return name;
      throw SchemaError(file + " is hidden by " + shadowing +
                        ", which has the same name in an earlier import path");
    }
    default:  // readable, and its own directory is mapped: not seen
      throw SchemaError("cannot read " + file);
  }
}

/// Every method of every service in `files`: "package.Service/Method, ...".
std::string methods_in(const std::vector<const pb::FileDescriptor*>& files) {
  std::string list;
  for (const auto* file : files) {
    for (int s = 0; s < file->service_count(); ++s) {
      const auto* service = file->service(s);
      for (int m = 0; m < service->method_count(); ++m) {
        list +=
            (list.empty() ? "" : ", ") + service->full_name() + "/" + service->method(m)->name();
      }
    }
  }
  return list.empty() ? "no services" : list;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

void Method::Loaded::compile(const ProtoSource& source) {
  if (source.files.empty()) throw SchemaError("no .proto file given for the gRPC method");
  map_paths(source_tree, source);
  for (const auto& file : source.files) {
    const auto* compiled = pool.FindFileByName(virtual_name(source_tree, file));
    if (compiled == nullptr) {
      const auto error = errors.text();
      throw SchemaError(error.empty() ? "cannot compile " + file : error);
    }
    file_names.push_back(file);
    files.push_back(compiled);
  }
}

void Method::Loaded::find(std::string_view path) {
  const auto [service_name, method_name] = split_path(path);
  const auto* service = pool.FindServiceByName(service_name);
  method = service == nullptr ? nullptr : service->FindMethodByName(method_name);
  if (method == nullptr) {
    throw SchemaError("no method " + service_name + "/" + method_name + " in " +
                      joined(file_names) + " (it has: " + methods_in(files) + ")");
  }
  request = factory.GetPrototype(method->input_type());
  response = factory.GetPrototype(method->output_type());
}

Method load_method(const ProtoSource& source, std::string_view path) {
  auto loaded = std::make_unique<Method::Loaded>();
  loaded->compile(source);
  loaded->find(path);
  return Method(std::move(loaded));
}

Method::Method(std::unique_ptr<Loaded> loaded) : loaded_(std::move(loaded)) {}
Method::Method(Method&&) noexcept = default;
Method& Method::operator=(Method&&) noexcept = default;
Method::~Method() = default;

std::string Method::path() const {
  return "/" + loaded_->method->service()->full_name() + "/" + loaded_->method->name();
}

const pb::MethodDescriptor& Method::descriptor() const { return *loaded_->method; }

const pb::Message& Method::request_prototype() const { return *loaded_->request; }

const pb::Message& Method::response_prototype() const { return *loaded_->response; }

bool Method::server_streaming() const { return loaded_->method->server_streaming(); }

bool Method::client_streaming() const { return loaded_->method->client_streaming(); }

}  // namespace stampede::grpc
