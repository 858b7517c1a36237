#include "web/announce_writer.h"

#include <sys/stat.h>
#include <utime.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "sitemap/announce_date.h"

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
constexpr size_t kUrlsPerFile = 50000;  // sitemaps protocol limit

uint64_t Mix(uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double Unit(uint64_t seed, const std::string& host, uint64_t purpose) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a of the host
  for (unsigned char c : host) h = (h ^ c) * 1099511628211ULL;
  return static_cast<double>(Mix(Mix(seed ^ h) + purpose) >> 11) / 9007199254740992.0;
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// First path segment of a label URL, made file-name safe ("root" for "/").
std::string SectionOf(const std::string& url) {
  size_t start = url.find('/', url.find("://") + 3);
  if (start == std::string::npos) return "root";
  size_t end = url.find_first_of("/?#", start + 1);
  std::string seg = url.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
  if (end == std::string::npos) seg.clear();  // a page at the root
  std::string out;
  for (char c : seg) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  if (out.empty() || out == "." || out == "..") out = "root";
  return out.substr(0, 100);
}

struct Page {
  const std::string* url;
  int64_t lastmod;      // seconds; what the host writes (0: nothing)
  int64_t true_lastmod; // seconds
  int64_t first;        // seconds: the page's first date
};

Status WriteFile(const std::string& path, const std::string& data, bool gzip, int64_t mtime) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb6");
    if (f == nullptr) return Status::Error("cannot write " + path);
    bool ok = data.empty() || gzwrite(f, data.data(), static_cast<unsigned>(data.size())) > 0;
    if (gzclose(f) != Z_OK || !ok) return Status::Error("cannot write " + path);
  } else if (Status s = WriteWholeFile(path, data); !s.ok()) {
    return s;
  }
  utimbuf t{static_cast<time_t>(mtime), static_cast<time_t>(mtime)};
  ::utime(path.c_str(), &t);
  return Status::Ok();
}

std::string Iso(int64_t seconds) { return FormatW3cDatetime(seconds * 1000); }

std::string Urlset(const std::vector<Page>& pages, size_t from, size_t to) {
  std::string x =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (size_t i = from; i < to; ++i) {
    x += "<url><loc>" + XmlEscape(*pages[i].url) + "</loc>";
    if (pages[i].lastmod > 0) x += "<lastmod>" + Iso(pages[i].lastmod) + "</lastmod>";
    x += "</url>\n";
  }
  return x + "</urlset>\n";
}

std::string Feed(const std::string& host, std::vector<Page> pages, int size, int64_t date) {
  std::stable_sort(pages.begin(), pages.end(), [](const Page& a, const Page& b) {
    return a.true_lastmod != b.true_lastmod ? a.true_lastmod > b.true_lastmod : *a.url < *b.url;
  });
  std::string x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                  "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>" + XmlEscape(host) +
                  "</title>\n<id>http://" + XmlEscape(host) + "/feed.atom</id>\n<updated>" +
                  Iso(date) + "</updated>\n";
  for (size_t i = 0; i < pages.size() && i < static_cast<size_t>(size); ++i) {
    const Page& p = pages[i];
    x += "<entry><title>" + XmlEscape(*p.url) + "</title><id>" + XmlEscape(*p.url) +
         "</id><link href=\"" + XmlEscape(*p.url) + "\"/><updated>" +
         Iso(p.lastmod > 0 ? p.lastmod : p.first) + "</updated><published>" + Iso(p.first) +
         "</published></entry>\n";
  }
  return x + "</feed>\n";
}

// The files of one host in one round.
Status WriteHost(const std::string& dir, const std::string& host, std::vector<Page> pages,
                 const AnnounceWebOptions& o, int round, AnnounceReport* report) {
  const int64_t date = RoundDate(o.epoch, round);
  std::sort(pages.begin(), pages.end(), [](const Page& a, const Page& b) { return *a.url < *b.url; });
  std::map<std::string, std::vector<Page>> sections;
  for (const Page& p : pages) sections[SectionOf(*p.url)].push_back(p);
  std::string index =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const auto& [name, list] : sections) {
    const bool gzip = list.size() > o.gzip_over_urls;
    for (size_t part = 0; part * kUrlsPerFile < list.size(); ++part) {
      std::string file = "sitemaps/" + name + (part ? "-" + std::to_string(part) : "") +
                         (gzip ? ".xml.gz" : ".xml");
      size_t to = std::min(list.size(), (part + 1) * kUrlsPerFile);
      if (Status s = WriteFile(dir + "/" + file, Urlset(list, part * kUrlsPerFile, to), gzip, date); !s.ok()) {
        return s;
      }
      int64_t newest = 0;
      for (size_t i = part * kUrlsPerFile; i < to; ++i) newest = std::max(newest, list[i].lastmod);
      index += "<sitemap><loc>http://" + XmlEscape(host) + "/" + XmlEscape(file) + "</loc>" +
               (newest > 0 ? "<lastmod>" + Iso(newest) + "</lastmod>" : "") + "</sitemap>\n";
      ++report->files;
    }
  }
  index += "</sitemapindex>\n";
  if (Status s = WriteFile(dir + "/sitemap.xml", index, false, date); !s.ok()) return s;
  if (Status s = WriteFile(dir + "/feed.atom", Feed(host, pages, o.feed_size, date), false, date); !s.ok()) {
    return s;
  }
  std::string robots = "User-agent: *\nDisallow:\n\nSitemap: http://" + host +
                       "/sitemap.xml\nSitemap: http://" + host + "/feed.atom\n";
  report->files += 3;
  report->urls += pages.size();
  return WriteFile(dir + "/robots.txt", robots, false, date);
}

int64_t FileMtime(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_mtime) : 0;
}

}  // namespace

int64_t RoundDate(int64_t epoch, int round) { return epoch + 86400LL * round; }

const char* LastmodHabitName(LastmodHabit h) {
  switch (h) {
    case LastmodHabit::kAccurate: return "accurate";
    case LastmodHabit::kBuildDate: return "build_date";
    case LastmodHabit::kStale: return "stale";
    case LastmodHabit::kNone: break;
  }
  return "none";
}

Status ValidateAnnounceOptions(const AnnounceWebOptions& o) {
  auto share = [](double v) { return v >= 0 && v <= 1; };
  if (!share(o.sitemap_hosts) || !share(o.lastmod_accuracy) || !share(o.lastmod_wrong)) {
    return Status::Error("--sitemap-hosts, --lastmod-accuracy and --lastmod-wrong are shares in [0, 1]");
  }
  if (o.lastmod_accuracy + o.lastmod_wrong > 1 + 1e-9) {
    return Status::Error("--lastmod-accuracy + --lastmod-wrong must be at most 1");
  }
  if (o.feed_size < 0) return Status::Error("--feed-size must be >= 0");
  return Status::Ok();
}

AnnounceHostPlan PlanAnnounceHost(const std::string& host, const AnnounceWebOptions& o) {
  AnnounceHostPlan p;
  p.host = host;
  p.sitemap = Unit(o.seed, host, 1) < o.sitemap_hosts;
  const double v = Unit(o.seed, host, 2);
  if (v < o.lastmod_accuracy) {
    p.habit = LastmodHabit::kAccurate;
  } else if (v < o.lastmod_accuracy + o.lastmod_wrong) {
    p.habit = Unit(o.seed, host, 3) < 0.5 ? LastmodHabit::kBuildDate : LastmodHabit::kStale;
  }
  return p;
}

StatusOr<AnnounceReport> WriteAnnouncements(const EvolvedWeb& web, const BaseWeb& base,
                                            const std::vector<std::string>& hosts,
                                            const AnnounceWebOptions& o) {
  if (Status v = ValidateAnnounceOptions(o); !v.ok()) return v;
  AnnounceReport report;
  std::set<std::string> chosen(hosts.begin(), hosts.end());
  std::map<std::string, AnnounceHostPlan> plans;
  for (const std::string& h : base.hosts) {
    if (chosen.empty() || chosen.count(h)) plans.try_emplace(h, PlanAnnounceHost(h, o));
  }
  std::string table = "host\tsitemap\tlastmod\n";
  for (const auto& [h, p] : plans) {
    table += h + "\t" + (p.sitemap ? "1" : "0") + "\t" + LastmodHabitName(p.habit) + "\n";
    report.announcing += p.sitemap;
  }
  report.hosts = plans.size();
  if (Status s = WriteWholeFile(web.dir + "/truth/announce-hosts.tsv", table); !s.ok()) return s;
  std::vector<int64_t> base_mtime(base.urls.size(), 0);
  std::vector<int64_t> first(base.urls.size(), 0);
  for (int k = 0; k <= web.rounds; ++k) {
    auto state = FoldOverlays(web, k);
    if (!state.ok()) return state.status();
    std::unordered_map<std::string, std::vector<Page>> by_host;
    for (size_t i = 0; i < base.urls.size(); ++i) {
      auto plan = plans.find(base.hosts[i]);
      if (plan == plans.end() || !plan->second.sitemap) continue;
      auto st = state->find(base.urls[i]);
      if (st != state->end() && !IsPresent(st->second.action)) continue;
      if (st == state->end() && base_mtime[i] == 0) base_mtime[i] = FileMtime(base.files[i]);
      const int64_t truth = st != state->end() ? RoundDate(o.epoch, st->second.round) : base_mtime[i];
      if (first[i] == 0) first[i] = truth;
      int64_t lastmod = 0;
      switch (plan->second.habit) {
        case LastmodHabit::kAccurate: lastmod = truth; break;
        case LastmodHabit::kBuildDate: lastmod = RoundDate(o.epoch, k); break;
        case LastmodHabit::kStale: lastmod = first[i]; break;
        case LastmodHabit::kNone: break;
      }
      by_host[base.hosts[i]].push_back({&base.urls[i], lastmod, truth, first[i]});
    }
    for (auto& [host, pages] : by_host) {
      std::string dir = web.dir + "/rounds/" + std::to_string(k) + "/announce/" + host;
      if (Status s = WriteHost(dir, host, std::move(pages), o, k, &report); !s.ok()) return s;
    }
  }
  return report;
}

StatusOr<AnnounceReport> RewriteAnnouncements(const std::string& evolved_dir,
                                              const AnnounceWebOptions& options) {
  auto web = OpenEvolvedWeb(evolved_dir);
  if (!web.ok()) return web.status();
  if (web->mode != "simulated") return Status::Error(evolved_dir + " was not made by `web evolve`");
  auto base = LoadBaseWeb(web->base);
  if (!base.ok()) return base.status();
  AnnounceWebOptions o = options;
  o.seed = std::strtoull(web->meta["seed"].c_str(), nullptr, 10);
  if (web->meta.count("date_epoch")) o.epoch = std::strtoll(web->meta["date_epoch"].c_str(), nullptr, 10);
  std::vector<std::string> hosts;
  const std::string& list = web->meta["hosts"];
  for (size_t i = 0; list != "-" && i < list.size();) {
    size_t j = list.find(',', i);
    hosts.push_back(list.substr(i, j == std::string::npos ? std::string::npos : j - i));
    i = j == std::string::npos ? list.size() : j + 1;
  }
  std::error_code ec;
  for (int k = 0; k <= web->rounds; ++k) {
    fs::remove_all(web->dir + "/rounds/" + std::to_string(k) + "/announce", ec);
  }
  AnnounceReport report;
  if (o.enabled) {
    auto r = WriteAnnouncements(*web, *base, hosts, o);
    if (!r.ok()) return r.status();
    report = *r;
  } else {
    fs::remove(web->dir + "/truth/announce-hosts.tsv", ec);
  }
  std::map<std::string, std::string> meta = web->meta;
  meta["announce"] = o.enabled ? "1" : "0";
  meta["sitemap_hosts"] = std::to_string(o.sitemap_hosts);
  meta["lastmod_accuracy"] = std::to_string(o.lastmod_accuracy);
  meta["lastmod_wrong"] = std::to_string(o.lastmod_wrong);
  meta["feed_size"] = std::to_string(o.feed_size);
  std::string text;
  for (const auto& [k, v] : meta) text += k + "\t" + v + "\n";
  if (Status s = WriteWholeFile(web->dir + "/evolve.tsv.tmp", text); !s.ok()) return s;
  fs::rename(web->dir + "/evolve.tsv.tmp", web->dir + "/evolve.tsv", ec);
  if (ec) return Status::Error("cannot replace " + web->dir + "/evolve.tsv: " + ec.message());
  return report;
}

}  // namespace topicrawl::web
