// Parsing speed and memory of the sitemap parser (issue 34: 20 sitemaps of
// 50,000 URLs each in <= 3 s CPU and <= 100 MB RSS).
//
//   sitemap_bench DIR [FILES [URLS [gzip]]]
//
// Writes FILES (20) sitemaps of URLS (50,000) <url> entries each (loc,
// lastmod, changefreq, priority, like a CMS writes them) into DIR, plain or
// gzip, one at a time; then parses them one after the other, reading each
// in 64 KiB pieces as a fetch would deliver them. Prints the CPU seconds of
// the parsing alone (getrusage around it) and the process's peak RSS.
#include <sys/resource.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "sitemap/announce_parser.h"

namespace {

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::string Entry(int file, int i) {
  char buf[320];
  std::snprintf(buf, sizeof(buf),
                "<url><loc>http://bench.test/section-%d/article-%07d.html</loc>"
                "<lastmod>2025-%02d-%02dT%02d:%02d:00+00:00</lastmod>"
                "<changefreq>weekly</changefreq><priority>0.%d</priority></url>\n",
                file, i, 1 + i % 12, 1 + i % 28, i % 24, i % 60, i % 10);
  return buf;
}

bool Write(const std::string& path, int file, int urls, bool gzip) {
  std::string head =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb6");
    if (f == nullptr) return false;
    gzwrite(f, head.data(), static_cast<unsigned>(head.size()));
    for (int i = 0; i < urls; ++i) {
      std::string e = Entry(file, i);
      gzwrite(f, e.data(), static_cast<unsigned>(e.size()));
    }
    gzwrite(f, "</urlset>\n", 10);
    return gzclose(f) == Z_OK;
  }
  std::ofstream out(path, std::ios::binary);
  out << head;
  for (int i = 0; i < urls; ++i) out << Entry(file, i);
  out << "</urlset>\n";
  return out.good();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sitemap_bench DIR [FILES [URLS [gzip]]]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int files = argc > 2 ? std::atoi(argv[2]) : 20;
  const int urls = argc > 3 ? std::atoi(argv[3]) : 50000;
  const bool gzip = argc > 4 && std::string(argv[4]) == "gzip";
  for (int f = 0; f < files; ++f) {
    if (!Write(dir + "/sitemap-" + std::to_string(f) + (gzip ? ".xml.gz" : ".xml"), f, urls, gzip)) {
      std::fprintf(stderr, "cannot write into %s\n", dir.c_str());
      return 1;
    }
  }
  const double start = CpuSeconds();
  long long entries = 0, bytes = 0, problems = 0;
  std::string buf(64 * 1024, '\0');
  for (int f = 0; f < files; ++f) {
    std::string name = "/sitemap-" + std::to_string(f) + (gzip ? ".xml.gz" : ".xml");
    topicrawl::AnnounceParser parser("http://bench.test" + name, {.now_ms = 1767225600000}, {},
                                     [&](const topicrawl::AnnouncedEntry&) { ++entries; });
    std::ifstream in(dir + name, std::ios::binary);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
      if (!parser.Feed(std::string_view(buf.data(), static_cast<size_t>(in.gcount())))) break;
    }
    const topicrawl::AnnounceSummary& s = parser.Finish();
    bytes += s.bytes;
    for (const auto& p : s.problems) problems += p.count;
  }
  const double cpu = CpuSeconds() - start;
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  std::printf("files %d urls_per_file %d gzip %d entries %lld xml_bytes %lld problems %lld "
              "parse_cpu_s %.3f max_rss_mb %.1f\n",
              files, urls, gzip ? 1 : 0, entries, bytes, problems, cpu, u.ru_maxrss / 1024.0);
  return entries == static_cast<long long>(files) * urls && problems == 0 ? 0 : 1;
}
