// refuse_clashes(): an output that is another output or an input, by name or by file, is refused.
#include "cmd/file_clash.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "cmd/options.hpp"

namespace stampede::cmd {
namespace {

namespace fs = std::filesystem;

class FileClash : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("stampede_file_clash_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_ / "sub");
    std::ofstream(dir_ / "req.curl") << "curl http://h/\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// The message refuse_clashes() throws, or "" when it lets the files be.
  static std::string refusal(const std::vector<NamedFile>& outputs,
                             const std::vector<NamedFile>& inputs) {
    try {
      refuse_clashes(outputs, inputs);
      return "";
    } catch (const UsageError& error) {
      return error.what();
    }
  }

  fs::path dir_;
};

TEST_F(FileClash, AnOutputThatIsAnInputIsRefusedByEveryNameOfIt) {
  const std::vector<NamedFile> inputs{{"-p's file", dir_ / "req.curl"}};
  fs::create_symlink(dir_ / "req.curl", dir_ / "link.curl");
  fs::create_hard_link(dir_ / "req.curl", dir_ / "hard.curl");
  for (const auto& name : {dir_ / "req.curl", dir_ / "sub" / ".." / "req.curl", dir_ / "link.curl",
                           dir_ / "hard.curl"}) {
    EXPECT_EQ(refusal({{"--html", name}}, inputs),
              "--html '" + name.string() +
                  "' is also -p's file: writing it would destroy it (name another file)");
  }
}

TEST_F(FileClash, TwoOutputsOfOneFileAreRefusedEvenBeforeItExists) {
  EXPECT_EQ(
      refusal({{"--save", dir_ / "run.stampede"}, {"--html", dir_ / "sub/../run.stampede"}}, {}),
      "--html '" + (dir_ / "sub/../run.stampede").string() +
          "' is also --save's file: one would overwrite the other (name another file)");
  EXPECT_FALSE(fs::exists(dir_ / "run.stampede"));
}

TEST_F(FileClash, OtherFilesAndStreamsAreLetBe) {
  EXPECT_EQ(refusal({{"--save", dir_ / "run.stampede"}, {"--html", dir_ / "sub/run.stampede"}},
                    {{"-p's file", dir_ / "req.curl"}, {"-data's file", dir_ / "missing.json"}}),
            "");
  // Writes to a device go out as they come: -e and --html may both go to /dev/null.
  EXPECT_EQ(refusal({{"-e", "/dev/null"}, {"--html", "/dev/null"}}, {}), "");
}

}  // namespace
}  // namespace stampede::cmd
