// Writes a CSV file of Gaussian numbers for the `dpcov gram` parsing benchmark:
//   make_csv OUTPUT MEGABYTES COLUMNS [SEED] [--digits N | --precision N]
// Numbers are printed in shortest round-trip form (about 18 characters, as pandas and most CSV
// writers emit them), with --digits N with N digits after the point (printf's %.Nf), or with
// --precision N with N significant digits (printf's %.Ng, as numpy.savetxt and R write them with
// a precision set). A header line names
// the columns x1..xd. Stops at the first row that reaches the requested size.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s OUTPUT MEGABYTES COLUMNS [SEED] [--digits N | --precision N]\n",
                 argv[0]);
    return 1;
  }
  const uint64_t target = std::strtoull(argv[2], nullptr, 10) * 1000000ull;
  const int cols = std::atoi(argv[3]);
  uint64_t seed = 1;
  int digits = -1;
  auto format = std::chars_format::fixed;
  for (int k = 4; k < argc; ++k) {
    const bool fixed = std::strcmp(argv[k], "--digits") == 0;
    if ((fixed || std::strcmp(argv[k], "--precision") == 0) && k + 1 < argc) {
      digits = std::atoi(argv[++k]);
      format = fixed ? std::chars_format::fixed : std::chars_format::general;
    } else {
      seed = std::strtoull(argv[k], nullptr, 10);
    }
  }
  if (cols < 1) return 1;
  std::FILE *out = std::strcmp(argv[1], "-") == 0 ? stdout : std::fopen(argv[1], "wb");
  if (out == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::string line;
  for (int j = 0; j < cols; ++j) line += (j ? ",x" : "x") + std::to_string(j + 1);
  line += '\n';
  uint64_t written = 0;
  uint64_t rows = 0;
  char number[40];
  while (written < target) {
    std::fwrite(line.data(), 1, line.size(), out);
    written += line.size();
    line.clear();
    for (int j = 0; j < cols; ++j) {
      if (j) line += ',';
      const double x = normal(engine);
      const auto r = digits < 0 ? std::to_chars(number, number + sizeof number, x)
                                : std::to_chars(number, number + sizeof number, x,
                                                format, digits);
      line.append(number, r.ptr);
    }
    line += '\n';
    ++rows;
  }
  std::fprintf(stderr, "make_csv: %llu data rows, %llu bytes\n",
               static_cast<unsigned long long>(rows - 1), static_cast<unsigned long long>(written));
  return std::fclose(out) == 0 ? 0 : 1;
}
