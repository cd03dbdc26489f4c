// The CLI's readers and writers, driven directly: exact parsing of number spellings, dialect
// detection, buffer and chunk boundaries, column selection, atomic files.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_error.hpp"
#include "io/gram_stream.hpp"
#include "io/readers/byte_source.hpp"
#include "io/readers/column_selection.hpp"
#include "io/readers/csv_dialect.hpp"
#include "io/readers/open_input.hpp"
#include "io/writers/atomic_file.hpp"

namespace dpcov::cli {
namespace {

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/dpcov-readers-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    for (const std::string &name : entries()) std::remove((dir_ + "/" + name).c_str());
    ::rmdir(dir_.c_str());
  }
  std::string write(const std::string &name, const std::string &content) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    DIR *d = ::opendir(dir_.c_str());
    while (dirent *e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    ::closedir(d);
    return names;
  }
  std::string dir_;
};

// Every row of an input, row-major, and the file line of each row.
struct ReadAll {
  std::vector<double> values;
  std::vector<int64_t> lines;
  std::vector<int64_t> chunk_sizes;
  int64_t dim = 0;
  std::vector<std::string> names;
  uint64_t bytes = 0;  // bytes_read() at the end
  bool operator==(const ReadAll &) const = default;
};

ReadAll read_all(const InputOptions &options) {
  const auto reader = open_input(options);
  ReadAll all;
  all.dim = reader->dim();
  all.names = reader->column_names();
  Chunk chunk;
  while (reader->next_chunk(chunk)) {
    all.values.insert(all.values.end(), chunk.values.begin(),
                      chunk.values.begin() + chunk.rows * chunk.dim);
    all.lines.insert(all.lines.end(), chunk.lines.begin(), chunk.lines.begin() + chunk.rows);
    all.chunk_sizes.push_back(chunk.rows);
  }
  all.bytes = reader->bytes_read();
  return all;
}

InputOptions csv_input(const std::string &path) {
  InputOptions options;
  options.path = path;
  return options;
}

using CsvReaderTest = TempDir;

TEST_F(CsvReaderTest, EveryNumberSpellingParsesToTheCorrectlyRoundedDouble) {
  const std::vector<std::string> spellings = {
      "0", "-0", "+2", "1.5", ".5", "5.", "1e3", "1E-3", "-2.5e+10", "+.25", "123456789012345678",
      "0.1", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "0.30000000000000004",
      "  7.25  ", "\"3.5\"", "\" -1e2 \""};
  std::string text;
  for (const std::string &s : spellings) text += s + "\n";
  const ReadAll all = read_all(csv_input(write("n.csv", text)));
  ASSERT_EQ(all.dim, 1);
  ASSERT_EQ(all.values.size(), spellings.size());
  for (size_t k = 0; k < spellings.size(); ++k) {
    std::string bare = spellings[k];
    std::erase(bare, '"');
    EXPECT_EQ(all.values[k], std::strtod(bare.c_str(), nullptr)) << spellings[k];
  }
  EXPECT_TRUE(std::signbit(all.values[1]));
}

TEST_F(CsvReaderTest, ValuesAndLinesSurviveReadBlockAndChunkBoundaries) {
  // About 10 MB: rows straddle the 4 MiB read blocks; uneven lengths move every boundary.
  std::mt19937_64 engine(7);
  std::normal_distribution<double> normal;
  std::ostringstream text;
  text.precision(17);
  text << "a;b;c\n";
  std::vector<double> expected;
  const int64_t rows = 200000;
  for (int64_t i = 0; i < rows; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double x = normal(engine) * std::pow(10.0, static_cast<int>(i % 7) - 3);
      expected.push_back(x);
      text << (j ? ";" : "") << x;
    }
    text << (i % 3 == 0 ? "\r\n" : "\n");
  }
  InputOptions options = csv_input(write("big.csv", text.str()));
  options.chunk_rows = 65536;
  const ReadAll all = read_all(options);
  ASSERT_EQ(all.values.size(), expected.size());
  EXPECT_EQ(all.values, expected);
  EXPECT_EQ(all.lines.front(), 2);
  EXPECT_EQ(all.lines.back(), rows + 1);
  EXPECT_EQ(all.chunk_sizes, (std::vector<int64_t>{65536, 65536, 65536, rows - 3 * 65536}));
  EXPECT_EQ(all.names, (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(CsvReaderTest, ALineLongerThanTheReadBufferGrowsIt) {
  // About 4.4 MB on one line, within the caps (kMaxColumns, kMaxCsvLineBytes): long spellings.
  const int64_t cols = 40000;
  const std::string zeros(100, '0');
  std::string line;
  for (int64_t j = 0; j < cols; ++j)
    line += (j ? "," : "") + std::to_string(j % 1000 + 0.5) + zeros;
  const ReadAll all = read_all(csv_input(write("wide.csv", line + "\n" + line)));
  ASSERT_EQ(all.dim, cols);
  ASSERT_EQ(all.values.size(), static_cast<size_t>(2 * cols));
  EXPECT_EQ(all.values[static_cast<size_t>(cols + 12345)], 345.5);
  EXPECT_EQ(all.lines, (std::vector<int64_t>{1, 2}));
}

TEST_F(CsvReaderTest, RowsRecordTheirFileLinesPastCommentsAndBlankLines) {
  InputOptions options = csv_input(write("l.csv", "# c\n\nx\n1\n\n2\n# c\n3\n4"));
  options.chunk_rows = 3;
  const ReadAll all = read_all(options);
  EXPECT_EQ(all.values, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(all.lines, (std::vector<int64_t>{4, 6, 8, 9}));
  EXPECT_EQ(all.chunk_sizes, (std::vector<int64_t>{3, 1}));
}

TEST_F(CsvReaderTest, ColumnSelectionSkipsTextFieldsAndReorders) {
  InputOptions options = csv_input(write("s.csv", "id,v,w\n\"a,b\",1,2\nc,3,4\n"));
  options.columns = {"w", "v"};
  const ReadAll all = read_all(options);
  EXPECT_EQ(all.values, (std::vector<double>{2, 1, 4, 3}));
  EXPECT_EQ(all.names, (std::vector<std::string>{"w", "v"}));
}

TEST_F(CsvReaderTest, ErrorsNameFileLineAndColumn) {
  const std::string path = write("e.csv", "1,2\n3,x\n");
  try {
    read_all(csv_input(path));
    FAIL() << "no error";
  } catch (const CliError &e) {
    EXPECT_EQ(e.code(), kExitInputData);
    EXPECT_EQ(std::string(e.what()), path + ":2:3: field 2: text that is not a number");
  }
}

// Regular files are mapped, pipes are read into a buffer: both paths must give the same rows.
class MappedAndPipedTest : public TempDir {
 protected:
  // `read(path)` on a named pipe into which another thread writes `content`. A reader stopping
  // early at an error closes the pipe: SIGPIPE is ignored so that the writer's write then fails
  // instead of ending the test program.
  template <class Read>
  auto through_pipe(const std::string &content, Read read) {
    std::signal(SIGPIPE, SIG_IGN);
    const std::string fifo = dir_ + "/in.fifo";
    std::remove(fifo.c_str());
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << content; });
    struct Join {
      std::thread &thread;
      ~Join() { thread.join(); }
    } join{writer};
    return read(fifo);
  }
  // `content` read from a regular file (mapped) and from a named pipe (read(2) path).
  std::pair<ReadAll, ReadAll> read_both(const std::string &content, int64_t chunk_rows = 0) {
    InputOptions options = csv_input(write("in.csv", content));
    options.chunk_rows = chunk_rows;
    const ReadAll mapped = read_all(options);
    return {mapped, through_pipe(content, [&](const std::string &fifo) {
              options.path = fifo;
              return read_all(options);
            })};
  }
  // The message of the error reading `path` raises, without the path.
  static std::string error_of(const std::string &path) {
    try {
      read_all(csv_input(path));
    } catch (const CliError &e) {
      return std::string(e.what()).substr(path.size());
    }
    return "no error";
  }
};

TEST_F(MappedAndPipedTest, EveryLineFormGivesTheSameRowsLinesAndByteCount) {
  // About 20 MB: past several read blocks (4 MiB) and release steps (8 MiB). Plain lines, which
  // take the fast path, alternate with lines only the general path reads.
  std::mt19937_64 engine(11);
  std::normal_distribution<double> normal;
  std::ostringstream text;
  text.precision(17);
  text << "\xEF\xBB\xBF" "# generated\n\na,b,c\n";
  std::vector<double> expected;
  const int64_t rows = 400000;
  for (int64_t i = 0; i < rows; ++i) {
    double x[3];
    for (double &v : x) {
      v = normal(engine) * std::pow(10.0, static_cast<int>(i % 9) - 4);
      expected.push_back(v);
    }
    switch (i % 8) {
      case 0: text << ' ' << x[0] << " , \"" << x[1] << "\"," << x[2] << '\n'; break;
      case 1: text << x[0] << ',' << x[1] << ',' << x[2] << "\r\n"; break;
      case 2: text << x[0] << ',' << x[1] << ',' << x[2] << "\n# comment\n\n"; break;
      default: text << x[0] << ',' << x[1] << ',' << x[2] << '\n';
    }
  }
  const std::string content = text.str();
  const auto [mapped, piped] = read_both(content, 65536);
  EXPECT_EQ(mapped, piped);
  EXPECT_EQ(mapped.values, expected);
  EXPECT_EQ(mapped.lines.front(), 4);
  EXPECT_EQ(mapped.bytes, content.size());
  EXPECT_EQ(mapped.names, (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(MappedAndPipedTest, ALastLineWithoutEndOfLineIsARow) {
  for (const std::string end : {"", "\r", "\n", "\r\n", "\n\n# end"}) {
    const auto [mapped, piped] = read_both("x,y\n1,2\n3,-4.5" + end);
    EXPECT_EQ(mapped, piped);
    EXPECT_EQ(mapped.values, (std::vector<double>{1, 2, 3, -4.5})) << end;
    EXPECT_EQ(mapped.lines, (std::vector<int64_t>{2, 3}));
  }
}

TEST_F(MappedAndPipedTest, InputsEndingAtAReleaseStepOrPageAreReadWhole) {
  // Sizes at, just below and just past the step at which mapped pages are released, and at a
  // page boundary; the last line is short or missing its end of line.
  const size_t step = ByteSource::kReleaseBytes;
  for (const size_t size : {step - 1, step, step + 1, size_t{4096}, 2 * step}) {
    std::string content;
    std::vector<double> expected;
    for (int64_t i = 0; content.size() + 32 < size; ++i) {
      content += std::to_string(i) + ".25,-" + std::to_string(i % 977) + "\n";
      expected.insert(expected.end(), {static_cast<double>(i) + 0.25, -static_cast<double>(i % 977)});
    }
    const std::string last = "7," + std::string(size - content.size() - 3, '0') + "\n";
    content += last.substr(0, size - content.size());
    expected.insert(expected.end(), {7.0, 0.0});
    ASSERT_EQ(content.size(), size);
    const auto [mapped, piped] = read_both(content);
    EXPECT_EQ(mapped, piped);
    EXPECT_EQ(mapped.values, expected) << size;
    EXPECT_EQ(mapped.bytes, size);
  }
}

TEST_F(MappedAndPipedTest, ALineCutInItsLastNumberByTheReadBufferIsNotTakenShort) {
  // The first 4 MiB read block ends inside a line's last number, which the read path must
  // complete before parsing it: 31-byte lines (4194304 = 31 * 135300 + 4) cut two digits into a
  // long number fast_float reads, 13-byte lines (4194304 = 13 * 322638 + 10) cut "-0.1234567",
  // a short decimal, after "-0.12345".
  for (const auto &[line, value] : {std::pair{std::string("1,1234567890123.45678901234567\n"),
                                              1234567890123.45678901234567},
                                    std::pair{std::string("1,-0.1234567\n"), -0.1234567}}) {
    const size_t lines = (size_t{4} << 20) / line.size() + 1000;
    ASSERT_GT((size_t{4} << 20) % line.size(), line.find(',') + 1) << line;
    std::string content;
    for (size_t i = 0; i < lines; ++i) content += line;
    const auto [mapped, piped] = read_both(content);
    EXPECT_EQ(mapped, piped);
    ASSERT_EQ(piped.values.size(), 2 * lines);
    for (size_t k = 1; k < piped.values.size(); k += 2) ASSERT_EQ(piped.values[k], value) << k;
  }
}

TEST_F(MappedAndPipedTest, ErrorsNameTheSamePositionOnBothPaths) {
  for (const std::string bad : {"1,nan\n", "1,2,3\n", "1\n", "1,2x\n", "1,inf", "1,2\rx\n"}) {
    const std::string content = "1,2\n3,4\n" + bad;
    const std::string mapped = error_of(write("bad.csv", content));
    EXPECT_EQ(mapped.substr(0, 3), ":3:") << mapped;
    EXPECT_EQ(through_pipe(content, error_of), mapped);
  }
}

TEST_F(MappedAndPipedTest, StandardInputFromAFileStartsWhereItsPositionIs) {
  // `dpcov gram - < file` after a caller consumed the file's first line: the rest is read.
  const std::string path = write("stdin.csv", "a,b\n1,2\n3,4\n");
  const int saved = ::dup(STDIN_FILENO);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 4, SEEK_SET), 4);
  ASSERT_EQ(::dup2(fd, STDIN_FILENO), STDIN_FILENO);
  ::close(fd);
  InputOptions options = csv_input("-");
  options.no_header = true;
  ReadAll all;
  try {
    all = read_all(options);
  } catch (...) {
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
    throw;
  }
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  EXPECT_EQ(all.values, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(all.lines, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(all.bytes, 8u);
}

TEST(CsvDialect, SplittingUnquotesAndTrims) {
  const auto fields = split_csv_line(" a , \"b,\"\"c\"\" \" ,, d", ',');
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields[0].text, "a");
  EXPECT_EQ(fields[1].text, "b,\"c\" ");
  EXPECT_EQ(fields[2].text, "");
  EXPECT_EQ(fields[3].text, "d");
  EXPECT_EQ(fields[3].offset, 19u);
  EXPECT_EQ(split_csv_line("  1 \t 2   3 ", ' ').size(), 3u);
  EXPECT_TRUE(split_csv_line("   ", ' ').empty());
}

TEST(CsvDialect, DelimiterIsTheOneSplittingEveryLineAlike) {
  using Lines = std::vector<std::string_view>;
  EXPECT_EQ(detect_csv_delimiter(Lines{"1,2,3", "4,5,6"}), ',');
  EXPECT_EQ(detect_csv_delimiter(Lines{"1;2", "3;4"}), ';');
  EXPECT_EQ(detect_csv_delimiter(Lines{"1\t2", "3\t4"}), '\t');
  EXPECT_EQ(detect_csv_delimiter(Lines{"1 2", "3  4"}), ' ');
  EXPECT_EQ(detect_csv_delimiter(Lines{"1, 2", "3, 4"}), ',');
  // A comma inside quotes does not count; semicolons split consistently.
  EXPECT_EQ(detect_csv_delimiter(Lines{"\"a,b\";c", "1;2"}), ';');
  EXPECT_EQ(detect_csv_delimiter(Lines{"7", "8"}), ',');
}

TEST(CsvDialect, HeaderIsTextAboveNumbers) {
  using Lines = std::vector<std::string_view>;
  EXPECT_TRUE(detect_csv_header(Lines{"x,y", "1,2"}, ','));
  EXPECT_FALSE(detect_csv_header(Lines{"1,2", "3,4"}, ','));
  EXPECT_FALSE(detect_csv_header(Lines{"a,1", "b,2"}, ','));  // a text column, no header
  EXPECT_TRUE(detect_csv_header(Lines{"id,x", "a,2"}, ','));
  EXPECT_FALSE(detect_csv_header(Lines{"2019,2020", "1,2"}, ','));  // needs --header
  EXPECT_TRUE(detect_csv_header(Lines{"x,y"}, ','));
  EXPECT_FALSE(detect_csv_header(Lines{"1,2x"}, ','));  // data with an error, reported as such
}

TEST(ColumnSelection, NamesNumbersAndRangesResolveInRequestedOrder) {
  const std::vector<std::string> names = {"a", "b", "3", "d"};
  EXPECT_EQ(resolve_columns({}, 4, names), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(resolve_columns({"d", "1-2"}, 4, names), (std::vector<int64_t>{3, 0, 1}));
  // A header name wins over the column number it spells.
  EXPECT_EQ(resolve_columns({"3"}, 4, names), (std::vector<int64_t>{2}));
  EXPECT_EQ(resolve_columns({"4"}, 4, {}), (std::vector<int64_t>{3}));
  for (const std::vector<std::string> &bad : std::vector<std::vector<std::string>>{
           {"e"}, {"0"}, {"5"}, {"3-2"}, {"a", "1"}, {"1-5"}, {""}}) {
    try {
      resolve_columns(bad, 4, names);
      ADD_FAILURE() << bad[0];
    } catch (const CliError &e) {
      EXPECT_EQ(e.code(), kExitUsage);
    }
  }
}

TEST(ChunkRows, WideRowsGetFewerRowsPerChunk) {
  EXPECT_EQ(default_chunk_rows(1), 65536);
  EXPECT_EQ(default_chunk_rows(32), 65536);
  EXPECT_EQ(default_chunk_rows(1000), 2097);
  EXPECT_EQ(default_chunk_rows(int64_t{1} << 30), 1);
}

using AtomicFileTest = TempDir;

TEST_F(AtomicFileTest, UncommittedFilesVanishAndCommittedOnesAppearWhole) {
  const std::string target = dir_ + "/out.csv";
  {
    AtomicFile file(target);
    std::fputs("partial", file.stream());
    EXPECT_EQ(entries().size(), 1u);  // the hidden temporary file
  }
  EXPECT_TRUE(entries().empty());
  {
    AtomicFile file(target);
    std::fputs("whole", file.stream());
    file.commit();
  }
  EXPECT_EQ(entries(), (std::vector<std::string>{"out.csv"}));
  std::ifstream in(target);
  std::string content;
  in >> content;
  EXPECT_EQ(content, "whole");
}

}  // namespace
}  // namespace dpcov::cli
