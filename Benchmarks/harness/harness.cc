// C++ peer harness: the same work as SMSKit's PhoneNumbersThroughput, done with Google's
// libphonenumber (Debian's libphonenumber-dev). Built and run by Benchmarks/compare.sh;
// the main SMSKit build never needs it.
//
// Usage: harness CORPUS [--repeat N] [--region XX] [--dump]
//
// CORPUS has one input per line, optionally "input<TAB>REGION". A line without a region
// is parsed with "ZZ" (no default region) when it starts with '+', else with --region
// (default "ZZ"). For every line: Parse, IsValidNumber, GetNumberType, Format(E164).
// The corpus is read into memory first; the timed loop runs it N times on one thread.
//
// Prints one line on stdout:
//   cpp_libphonenumber numbers_per_sec=<X> ns_per_number=<Y> valid=<count>
// where valid counts the valid numbers of one pass over the corpus. With --dump, prints
// instead one line per input: input, region, error code, E.164, valid, type (tab-separated).

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

struct Entry {
  std::string input;
  std::string region;
};

int Usage() {
  std::fprintf(stderr, "usage: harness CORPUS [--repeat N] [--region XX] [--dump]\n");
  return 64;
}

bool ReadCorpus(const char* path, const std::string& fallback_region,
                std::vector<Entry>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    Entry e;
    const std::string::size_type tab = line.find('\t');
    if (tab != std::string::npos) {
      e.input = line.substr(0, tab);
      e.region = line.substr(tab + 1);
      if (e.region.empty()) e.region = "ZZ";
    } else {
      e.input = line;
      e.region = (!line.empty() && line[0] == '+') ? "ZZ" : fallback_region;
    }
    out->push_back(std::move(e));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  const char* corpus = nullptr;
  long repeat = 1;
  std::string region = "ZZ";
  bool dump = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::strtol(argv[++i], nullptr, 10);
      if (repeat < 1) return Usage();
    } else if (std::strcmp(argv[i], "--region") == 0 && i + 1 < argc) {
      region = argv[++i];
    } else if (std::strcmp(argv[i], "--dump") == 0) {
      dump = true;
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      return Usage();
    } else {
      corpus = argv[i];
    }
  }
  if (corpus == nullptr) return Usage();

  std::vector<Entry> entries;
  if (!ReadCorpus(corpus, region, &entries)) {
    std::fprintf(stderr, "harness: cannot read %s\n", corpus);
    return 1;
  }
  if (entries.empty()) {
    std::fprintf(stderr, "harness: %s is empty\n", corpus);
    return 1;
  }

  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  PhoneNumber number;
  std::string formatted;

  if (dump) {
    for (const Entry& e : entries) {
      number.Clear();
      const PhoneNumberUtil::ErrorType err = util.Parse(e.input, e.region, &number);
      if (err != PhoneNumberUtil::NO_PARSING_ERROR) {
        std::printf("%s\t%s\t%d\t\t\t\n", e.input.c_str(), e.region.c_str(), static_cast<int>(err));
        continue;
      }
      util.Format(number, PhoneNumberUtil::E164, &formatted);
      std::printf("%s\t%s\t0\t%s\t%d\t%d\n", e.input.c_str(), e.region.c_str(), formatted.c_str(),
                  util.IsValidNumber(number) ? 1 : 0, static_cast<int>(util.GetNumberType(number)));
    }
    return 0;
  }

  // Warm up: metadata and the regular-expression cache, outside the timed section.
  long valid_one_pass = 0;
  std::uint64_t checksum = 0;
  for (const Entry& e : entries) {
    number.Clear();
    if (util.Parse(e.input, e.region, &number) == PhoneNumberUtil::NO_PARSING_ERROR) {
      if (util.IsValidNumber(number)) ++valid_one_pass;
    }
  }

  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  long valid_all = 0;
  for (long r = 0; r < repeat; ++r) {
    for (const Entry& e : entries) {
      number.Clear();
      if (util.Parse(e.input, e.region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) continue;
      if (util.IsValidNumber(number)) ++valid_all;
      checksum += static_cast<std::uint64_t>(util.GetNumberType(number));
      util.Format(number, PhoneNumberUtil::E164, &formatted);
      checksum += formatted.size();
    }
  }
  const auto stop = std::chrono::steady_clock::now();
  const std::clock_t cpu_stop = std::clock();

  const double seconds = std::chrono::duration<double>(stop - start).count();
  const double total = static_cast<double>(entries.size()) * static_cast<double>(repeat);
  // CPU time of the process next to wall time: on a loaded machine the wall-clock figure
  // undercounts what one free core does.
  const double cpu_seconds = static_cast<double>(cpu_stop - cpu_start) / CLOCKS_PER_SEC;
  std::fprintf(stderr,
               "harness: %zu lines x %ld repeats in %.3f s wall, %.3f s cpu "
               "(cpu numbers_per_sec=%.0f; checksum %llu, valid/pass %ld)\n",
               entries.size(), repeat, seconds, cpu_seconds, total / cpu_seconds,
               static_cast<unsigned long long>(checksum), valid_all / repeat);
  std::printf("cpp_libphonenumber numbers_per_sec=%.0f ns_per_number=%.1f valid=%ld\n",
              total / seconds, seconds * 1e9 / total, valid_one_pass);
  return 0;
}
