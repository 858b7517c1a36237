#include "web/synthetic_web.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <utility>

#include "core/hash.h"
#include "url/path_encoding.h"
#include "web/synthetic_vocabulary.h"

namespace topicrawl::web {
namespace {

// Salts keep the random streams of different decisions independent.
enum Salt : uint64_t {
  kSaltHost = 1, kSaltCluster, kSaltTunnel, kSaltSlug, kSaltTitle, kSaltBody, kSaltLinks,
  kSaltSid, kSaltCalendar, kSaltNoise
};

// SplitMix64 finaliser: a cheap, well-mixed 64-bit hash.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t H(uint64_t a, uint64_t b, uint64_t c = 0, uint64_t d = 0, uint64_t e = 0) {
  return Mix(a ^ Mix(b ^ Mix(c ^ Mix(d ^ Mix(e)))));
}

double Unit(uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; }

uint64_t Below(uint64_t x, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(x) * n) >> 64);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() { return Mix(state_ += 0x9e3779b97f4a7c15ULL); }
  double Uniform() { return Unit(Next()); }
  uint64_t Below(uint64_t n) { return web::Below(Next(), n); }

 private:
  uint64_t state_;
};

std::vector<std::string_view> SplitSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

struct Vocabulary {
  std::vector<std::vector<std::string_view>> en, zh;
  std::vector<std::string_view> common_en, common_zh, neutral;
  std::vector<std::string> names;
  Vocabulary() {
    for (const auto& t : synthetic::kTopics) {
      en.push_back(SplitSpaces(t.en));
      zh.push_back(SplitSpaces(t.zh));
      names.emplace_back(t.name);
    }
    common_en = SplitSpaces(synthetic::kCommonEn);
    common_zh = SplitSpaces(synthetic::kCommonZh);
    neutral = SplitSpaces(synthetic::kNeutralSlugs);
  }
};

const Vocabulary& Vocab() {
  static const Vocabulary* v = new Vocabulary();
  return *v;
}

// Zipf-like skew: early (more characteristic) words are drawn more often.
std::string_view Skewed(const std::vector<std::string_view>& words, Rng& rng) {
  double x = rng.Uniform();
  return words[static_cast<size_t>(x * x * static_cast<double>(words.size()))];
}

constexpr uint64_t kNoPage = ~uint64_t{0};

void AppendUint(std::string* out, uint64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, end);
}

bool ParseUint(std::string_view s, uint64_t* v) {
  if (s.empty() || s.size() > 18 || (s.size() > 1 && s[0] == '0')) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && ptr == s.data() + s.size();
}

std::string Hex16(uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[i] = kHex[v & 15];
  return s;
}

struct Link {
  std::string href;
  std::string anchor;
};

SyntheticResponse NotFound() {
  SyntheticResponse r;
  r.status = 404;
  r.body = "<!DOCTYPE html><html><head><title>404 Not Found</title></head>"
           "<body><h1>Not Found</h1></body></html>\n";
  return r;
}

Status Range(const char* knob, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi)) {
    return Status::Error(std::string("synthetic web: ") + knob + " must be in [" +
                         std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                         std::to_string(v));
  }
  return Status::Ok();
}

}  // namespace

struct SyntheticWeb::HostInfo {
  bool zh = false;
  uint32_t topic = 0;
  bool calendar = false;
  bool sessions = false;
  bool robots_block_calendar = false;
  uint64_t pages = 0;
  JsStyle js = JsStyle::kStatic;
};

Status SyntheticWebOptions::Validate() const {
  const std::pair<const char*, std::pair<double, std::pair<double, double>>> checks[] = {
      {"hosts", {static_cast<double>(hosts), {1, 100000}}},
      {"pages", {static_cast<double>(pages), {1, 1e7}}},
      {"topics", {static_cast<double>(topics), {1, static_cast<double>(std::size(synthetic::kTopics))}}},
      {"zh_host_fraction", {zh_host_fraction, {0, 1}}},
      {"cluster_size", {static_cast<double>(cluster_size), {1, 1e6}}},
      {"cluster_fanout", {static_cast<double>(cluster_fanout), {1, 1000}}},
      {"host_purity", {host_purity, {0, 1}}},
      {"topic_word_ratio", {topic_word_ratio, {0, 1}}},
      {"noise_topic_ratio", {noise_topic_ratio, {0, 1}}},
      {"url_topic_hint", {url_topic_hint, {0, 1}}},
      {"words_min", {static_cast<double>(words_min), {0, 100000}}},
      {"words_max", {static_cast<double>(words_max), {static_cast<double>(words_min), 100000}}},
      {"out_degree_alpha", {out_degree_alpha, {1.01, 10}}},
      {"out_degree_min", {static_cast<double>(out_degree_min), {0, 10000}}},
      {"out_degree_max", {static_cast<double>(out_degree_max), {static_cast<double>(out_degree_min), 10000}}},
      {"cluster_locality", {cluster_locality, {0, 1}}},
      {"cross_site_prob", {cross_site_prob, {0, 1}}},
      {"cross_site_same_topic", {cross_site_same_topic, {0, 1}}},
      {"broken_link_prob", {broken_link_prob, {0, 1}}},
      {"tunnel_prob", {tunnel_prob, {0, 1}}},
      {"tunnel_length", {static_cast<double>(tunnel_length), {1, 1e6}}},
      {"calendar_host_fraction", {calendar_host_fraction, {0, 1}}},
      {"session_host_fraction", {session_host_fraction, {0, 1}}},
      {"robots_calendar_disallow", {robots_calendar_disallow, {0, 1}}},
      {"crawl_delay", {crawl_delay, {0, 3600}}},
      {"js_host_fraction", {js_host_fraction, {0, 1}}},
  };
  for (const auto& [knob, value_range] : checks) {
    Status s = Range(knob, value_range.first, value_range.second.first, value_range.second.second);
    if (!s.ok()) return s;
  }
  if (pages < hosts) return Status::Error("synthetic web: pages must be >= hosts");
  if (topic_word_ratio + noise_topic_ratio > 1) {
    return Status::Error("synthetic web: topic_word_ratio + noise_topic_ratio must be <= 1");
  }
  if (domain.empty() || domain.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-.") !=
                            std::string::npos) {
    return Status::Error("synthetic web: domain must be a lower-case DNS suffix");
  }
  return Status::Ok();
}

const std::vector<std::string>& TopicNames() { return Vocab().names; }

int TopicIndex(std::string_view name_or_index, uint32_t topics) {
  uint64_t index = 0;
  if (ParseUint(name_or_index, &index)) return index < topics ? static_cast<int>(index) : -1;
  const auto& names = TopicNames();
  for (uint32_t i = 0; i < topics && i < names.size(); ++i) {
    if (names[i] == name_or_index) return static_cast<int>(i);
  }
  return -1;
}

SyntheticWeb::SyntheticWeb(SyntheticWebOptions options) : options_(std::move(options)) {}

SyntheticWeb::HostInfo SyntheticWeb::Host(uint32_t h) const {
  const uint64_t s = options_.seed;
  HostInfo info;
  info.zh = Unit(H(s, kSaltHost, h, 1)) < options_.zh_host_fraction;
  info.topic = static_cast<uint32_t>(Below(H(s, kSaltHost, h, 2), options_.topics));
  info.calendar = Unit(H(s, kSaltHost, h, 3)) < options_.calendar_host_fraction;
  info.sessions = Unit(H(s, kSaltHost, h, 4)) < options_.session_host_fraction;
  info.robots_block_calendar =
      info.calendar && Unit(H(s, kSaltHost, h, 5)) < options_.robots_calendar_disallow;
  info.pages = PagesOnHost(h);
  info.js = HostJsStyle(h);
  return info;
}

JsStyle SyntheticWeb::HostJsStyle(uint32_t h) const {
  const uint64_t r = H(options_.seed, kSaltHost, h, 6);
  if (Unit(r) >= options_.js_host_fraction) return JsStyle::kStatic;
  return static_cast<JsStyle>(1 + Below(Mix(r), 4));
}

uint64_t SyntheticWeb::PagesOnHost(uint32_t h) const {
  return options_.pages / options_.hosts + (h < options_.pages % options_.hosts ? 1 : 0);
}

std::string SyntheticWeb::HostName(uint32_t h) const {
  std::string name = Host(h).zh ? "zhan" : "site";
  AppendUint(&name, h);
  return name + "." + options_.domain;
}

uint64_t SyntheticWeb::Clusters(uint32_t h) const {
  return (PagesOnHost(h) + options_.cluster_size - 1) / options_.cluster_size;
}

uint32_t SyntheticWeb::ClusterTopic(uint32_t h, uint64_t c) const {
  uint32_t host_topic = static_cast<uint32_t>(Below(H(options_.seed, kSaltHost, h, 2), options_.topics));
  if (c == 0) return host_topic;
  uint64_t r = H(options_.seed, kSaltCluster, h, c);
  if (Unit(r) < options_.host_purity) return host_topic;
  return static_cast<uint32_t>(Below(Mix(r), options_.topics));
}

bool SyntheticWeb::Tunnelled(uint32_t h, uint64_t c) const {
  if (c == 0) return false;
  uint64_t parent = (c - 1) / options_.cluster_fanout;
  return ClusterTopic(h, c) != ClusterTopic(h, parent) &&
         Unit(H(options_.seed, kSaltTunnel, h, c)) < options_.tunnel_prob;
}

uint32_t SyntheticWeb::PageTopic(uint32_t h, uint64_t p) const {
  return ClusterTopic(h, p / options_.cluster_size);
}

bool SyntheticWeb::PageTunnelled(uint32_t h, uint64_t p) const {
  return Tunnelled(h, p / options_.cluster_size);
}

std::string SyntheticWeb::PagePath(uint32_t h, uint64_t p) const {
  if (p == 0) return "/";
  const uint64_t c = p / options_.cluster_size;
  const Vocabulary& v = Vocab();
  uint64_t r = H(options_.seed, kSaltSlug, h, c);
  std::string path = "/";
  if (Unit(r) < options_.url_topic_hint) {
    path += v.names[ClusterTopic(h, c)];
  } else {
    path += v.neutral[Below(Mix(r), v.neutral.size())];
  }
  path += "/c";
  AppendUint(&path, c);
  path += "/p";
  AppendUint(&path, p);
  path += ".html";
  return path;
}

std::string SyntheticWeb::PageUrl(uint32_t h, uint64_t p) const {
  return "http://" + HostName(h) + (p == 0 ? std::string("/index.html") : PagePath(h, p));
}

// Where a link from page `from` (kNoPage: another host) to `target` really
// points: links into a tunnelled cluster are only kept from inside it or from
// its gate page; all others go to the parent cluster's entry instead.
uint64_t SyntheticWeb::Visible(uint32_t h, uint64_t from, uint64_t target) const {
  const uint64_t size = options_.cluster_size;
  const uint64_t n = PagesOnHost(h);
  while (true) {
    const uint64_t c = target / size;
    if (!Tunnelled(h, c) || (from != kNoPage && from / size == c)) return target;
    const uint64_t parent = (c - 1) / options_.cluster_fanout;
    const uint64_t parent_size = std::min(size, n - parent * size);
    const uint64_t gate = parent * size + std::min<uint64_t>(options_.tunnel_length, parent_size) - 1;
    if (from == gate) return target;
    target = parent * size;
  }
}

std::string SyntheticWeb::Title(uint32_t h, uint64_t p) const {
  Rng rng(H(options_.seed, kSaltTitle, h, p));
  const Vocabulary& v = Vocab();
  const bool zh = Host(h).zh;
  const uint32_t topic = PageTopic(h, p);
  const auto& topic_words = zh ? v.zh[topic] : v.en[topic];
  const auto& common = zh ? v.common_zh : v.common_en;
  const int words = 2 + static_cast<int>(rng.Below(4));
  std::string title;
  for (int i = 0; i < words; ++i) {
    if (!zh && i > 0) title += ' ';
    title += (i == 0 || rng.Uniform() < 0.5) ? Skewed(topic_words, rng) : Skewed(common, rng);
  }
  return title;
}

bool SyntheticWeb::ParseHost(std::string_view host, uint32_t* h) const {
  size_t colon = host.rfind(':');
  if (colon != std::string_view::npos) host = host.substr(0, colon);
  std::string lower(host);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!lower.empty() && lower.back() == '.') lower.pop_back();
  const std::string suffix = "." + options_.domain;
  if (lower.size() <= 4 + suffix.size() ||
      lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  std::string_view prefix = std::string_view(lower).substr(0, 4);
  if (prefix != "site" && prefix != "zhan") return false;
  uint64_t index = 0;
  if (!ParseUint(std::string_view(lower).substr(4, lower.size() - 4 - suffix.size()), &index) ||
      index >= options_.hosts) {
    return false;
  }
  *h = static_cast<uint32_t>(index);
  return Host(*h).zh == (prefix == "zhan");
}

std::string SyntheticWeb::Robots(uint32_t h) const {
  HostInfo info = Host(h);
  std::string robots = "User-agent: *\n";
  robots += info.robots_block_calendar ? "Disallow: /cal/\n" : "Disallow:\n";
  if (options_.crawl_delay > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "Crawl-delay: %g\n", options_.crawl_delay);
    robots += buf;
  }
  return robots;
}

namespace {

// One word drawn with a single 64-bit random number: the low half picks the
// source (topic / noise topic / common words), the high half the word, skewed
// towards the front of the list (index ~ size * x^2, a Zipf-like head).
struct WordSampler {
  const std::vector<std::string_view>* topic;
  const std::vector<std::string_view>* noise;
  const std::vector<std::string_view>* common;
  uint64_t topic_below;  // thresholds on the low 32 bits
  uint64_t noise_below;
  std::string_view Next(uint64_t r) const {
    const uint64_t pick = r & 0xffffffffULL;
    const std::vector<std::string_view>& words =
        pick < topic_below ? *topic : pick < noise_below ? *noise : *common;
    const uint64_t x = r >> 32;
    return words[(((x * x) >> 32) * words.size()) >> 32];
  }
};

// Appends generated prose with `links` spread evenly through it.
void AppendProse(bool zh, uint32_t words, const std::vector<std::string_view>& topic_words,
                 const std::vector<std::string_view>& noise_words,
                 const std::vector<std::string_view>& common, double topic_ratio,
                 double noise_ratio, const std::vector<Link>& links, Rng& rng, std::string* out) {
  const WordSampler sampler{&topic_words, &noise_words, &common,
                            static_cast<uint64_t>(topic_ratio * 4294967296.0),
                            static_cast<uint64_t>((topic_ratio + noise_ratio) * 4294967296.0)};
  size_t next_link = 0;
  const uint32_t link_every = static_cast<uint32_t>(words / (links.size() + 1)) + 1;
  uint32_t until_link = link_every, until_sentence = 13, until_paragraph = 64, until_comma = 5;
  *out += "<p>";
  for (uint32_t i = 0; i < words; ++i) {
    if (!zh && i > 0) *out += ' ';
    *out += sampler.Next(rng.Next());
    if (--until_paragraph == 0) {
      *out += zh ? "。</p>\n<p>" : ".</p>\n<p>";
      until_paragraph = 64;
      until_sentence = 13;
    } else if (--until_sentence == 0) {
      *out += zh ? "。" : ".";
      until_sentence = 13;
    } else if (zh && --until_comma == 0) {
      *out += "，";
      until_comma = 5;
    }
    if (--until_link == 0) {
      until_link = link_every;
      if (next_link < links.size()) {
        const Link& l = links[next_link++];
        out->append(zh ? "<a href=\"" : " <a href=\"").append(l.href).append("\">");
        out->append(l.anchor).append("</a>");
      }
    }
  }
  for (; next_link < links.size(); ++next_link) {
    out->append(" <a href=\"").append(links[next_link].href).append("\">");
    out->append(links[next_link].anchor).append("</a>");
  }
  *out += zh ? "。</p>\n" : ".</p>\n";
}

}  // namespace

SyntheticResponse SyntheticWeb::Page(uint32_t h, uint64_t p, std::string_view sid) const {
  const SyntheticWebOptions& o = options_;
  const HostInfo info = Host(h);
  const Vocabulary& v = Vocab();
  const uint64_t size = o.cluster_size;
  const uint64_t n = info.pages;
  const uint64_t c = p / size;
  const uint32_t topic = ClusterTopic(h, c);
  const uint64_t sid_hash = sid.empty() ? 0 : Hash64(sid);
  uint64_t link_counter = 0;
  auto in_site = [&](uint64_t target) {
    std::string href = PagePath(h, target);
    if (info.sessions) {
      href += "?sid=" + Hex16(H(o.seed, kSaltSid, h, p, sid_hash + link_counter++));
    }
    return Link{std::move(href), Title(h, target)};
  };

  // Structural links: home, next in cluster, cluster tree, tunnel exits, calendar.
  std::vector<Link> nav;
  if (p != 0) nav.push_back(in_site(0));
  if (p + 1 < n && (p + 1) / size == c) nav.push_back(in_site(p + 1));
  const uint64_t clusters = Clusters(h);
  for (uint64_t k = c * o.cluster_fanout + 1; k <= c * o.cluster_fanout + o.cluster_fanout && k < clusters; ++k) {
    const uint64_t cluster_size = std::min(size, n - c * size);
    const uint64_t gate = c * size + std::min<uint64_t>(o.tunnel_length, cluster_size) - 1;
    const bool entry = p == c * size;
    if ((Tunnelled(h, k) && p == gate) || (!Tunnelled(h, k) && entry)) nav.push_back(in_site(k * size));
  }
  if (info.calendar && p == 0) {
    uint64_t r = H(o.seed, kSaltCalendar, h);
    nav.push_back({"/cal/" + std::to_string(2000 + Below(r, 25)) + "/" +
                       std::to_string(1 + Below(Mix(r), 12)),
                   info.zh ? "活动日历" : "events calendar"});
  }

  // Random links with a Pareto out-degree.
  Rng rng(H(o.seed, kSaltLinks, h, p));
  double pareto = o.out_degree_min / std::pow(1 - rng.Uniform(), 1 / (o.out_degree_alpha - 1));
  const uint64_t degree =
      std::min<uint64_t>(o.out_degree_max, static_cast<uint64_t>(std::isfinite(pareto) ? pareto : o.out_degree_max));
  std::vector<Link> links;
  for (uint64_t i = 0; i < degree; ++i) {
    double u = rng.Uniform();
    if (u < o.broken_link_prob) {
      links.push_back({PagePath(h, std::max<uint64_t>(1, p)) + "x" + std::to_string(i), "more"});
    } else if (u < o.broken_link_prob + o.cross_site_prob && o.hosts > 1) {
      uint32_t h2 = static_cast<uint32_t>(rng.Below(o.hosts - 1));
      if (h2 >= h) ++h2;
      if (rng.Uniform() < o.cross_site_same_topic) {
        for (int tries = 0; tries < 16 && Host(h2).topic != topic; ++tries) {
          uint32_t cand = static_cast<uint32_t>(rng.Below(o.hosts));
          if (cand != h) h2 = cand;
        }
      }
      uint64_t t = rng.Uniform() < 0.3 ? 0 : rng.Below(PagesOnHost(h2));
      t = Visible(h2, kNoPage, t);
      // Other sites link a script-built site at its entry: its pages are
      // found only through the navigation its scripts build.
      if (HostJsStyle(h2) != JsStyle::kStatic) t = 0;
      links.push_back({"http://" + HostName(h2) + PagePath(h2, t), Title(h2, t)});
    } else {
      uint64_t t;
      if (rng.Uniform() < o.cluster_locality) {
        t = c * size + rng.Below(std::min(size, n - c * size));
      } else {
        t = rng.Below(n);
      }
      if (t == p) continue;
      links.push_back(in_site(Visible(h, p, t)));
    }
  }

  SyntheticResponse r;
  std::string& b = r.body;
  const std::string title = Title(h, p);
  b.reserve(8192);
  b += info.zh ? "<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>"
               : "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>";
  b += title;
  b += "</title></head>\n<body>\n<h1>" + title + "</h1>\n";
  Rng text(H(o.seed, kSaltBody, h, p));
  const uint32_t words = o.words_min + static_cast<uint32_t>(text.Below(o.words_max - o.words_min + 1));
  const uint32_t noise = static_cast<uint32_t>(Below(H(o.seed, kSaltNoise, h, p), o.topics));
  AppendProse(info.zh, words, info.zh ? v.zh[topic] : v.en[topic],
              info.zh ? v.zh[noise] : v.en[noise], info.zh ? v.common_zh : v.common_en,
              o.topic_word_ratio, o.noise_topic_ratio, links, text, &b);
  b += "<ul class=\"nav\">\n";
  for (const Link& l : nav) b += "<li><a href=\"" + l.href + "\">" + l.anchor + "</a></li>\n";
  b += "</ul>\n</body></html>\n";
  return r;
}

SyntheticResponse SyntheticWeb::Calendar(uint32_t h, uint64_t year, uint32_t month) const {
  const HostInfo info = Host(h);
  const Vocabulary& v = Vocab();
  uint64_t next_year = month == 12 ? year + 1 : year, prev_year = month == 1 ? year - 1 : year;
  uint32_t next_month = month == 12 ? 1 : month + 1, prev_month = month == 1 ? 12 : month - 1;
  std::vector<Link> links = {
      {"/cal/" + std::to_string(next_year) + "/" + std::to_string(next_month),
       info.zh ? "下个月" : "next month"},
      {"/", info.zh ? "首页" : "home"}};
  if (prev_year >= 1) {
    links.push_back({"/cal/" + std::to_string(prev_year) + "/" + std::to_string(prev_month),
                     info.zh ? "上个月" : "previous month"});
  }
  Rng rng(H(options_.seed, kSaltCalendar, h, year * 12 + month));
  for (int i = 0; i < 3; ++i) {
    uint64_t t = Visible(h, kNoPage, rng.Below(info.pages));
    links.push_back({PagePath(h, t), Title(h, t)});
  }
  SyntheticResponse r;
  std::string title = (info.zh ? "活动日历 " : "Events calendar ") + std::to_string(year) + "-" +
                      std::to_string(month);
  r.body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title +
           "</title></head>\n<body>\n<h1>" + title + "</h1>\n";
  AppendProse(info.zh, 40, info.zh ? v.common_zh : v.common_en, info.zh ? v.common_zh : v.common_en,
              info.zh ? v.common_zh : v.common_en, 0, 0, links, rng, &r.body);
  r.body += "</body></html>\n";
  return r;
}

SyntheticResponse SyntheticWeb::Respond(std::string_view host, std::string_view target) const {
  uint32_t h = 0;
  if (!ParseHost(host, &h)) return NotFound();
  const JsStyle js = HostJsStyle(h);
  if (js == JsStyle::kStatic) return RespondStatic(h, target);
  // A script-built host: the static page inside a shell, its app, its API.
  std::string_view path = target.substr(0, target.find('?'));
  if (path == "/app.js") {
    SyntheticResponse r;
    r.content_type = "application/javascript; charset=utf-8";
    r.body = JsApp(js);
    return r;
  }
  if (path == "/api/page.json") {
    std::string_view query = target.substr(std::min(target.size(), path.size() + 1));
    if (query.substr(0, 2) != "u=") return NotFound();
    SyntheticResponse page = RespondStatic(h, PercentDecode(query.substr(2)));
    if (page.status != 200 || page.content_type.find("html") == std::string::npos) {
      return NotFound();
    }
    page.content_type = "application/json";
    page.body = JsPageJson(page.body);
    return page;
  }
  SyntheticResponse r = RespondStatic(h, target);
  if (r.status == 200 && r.content_type.find("html") != std::string::npos &&
      path.substr(0, 5) != "/cal/") {
    r.body = JsShell(js, r.body);
  }
  return r;
}

SyntheticResponse SyntheticWeb::RespondStatic(uint32_t h, std::string_view target) const {
  std::string_view path = target, query;
  if (size_t q = target.find('?'); q != std::string_view::npos) {
    path = target.substr(0, q);
    query = target.substr(q + 1);
  }
  if (size_t hash = path.find('#'); hash != std::string_view::npos) path = path.substr(0, hash);
  std::string_view sid;
  for (size_t pos = 0; pos < query.size();) {
    size_t amp = query.find('&', pos);
    std::string_view param = query.substr(pos, amp == std::string_view::npos ? amp : amp - pos);
    if (param.substr(0, 4) == "sid=") sid = param.substr(4);
    pos = amp == std::string_view::npos ? query.size() : amp + 1;
  }
  if (path == "/robots.txt") {
    SyntheticResponse r;
    r.content_type = "text/plain; charset=utf-8";
    r.body = Robots(h);
    return r;
  }
  if (path == "/" || path == "/index.html") return Page(h, 0, sid);
  if (path.substr(0, 5) == "/cal/") {
    std::string_view rest = path.substr(5);
    size_t slash = rest.find('/');
    uint64_t year = 0, month = 0;
    if (Host(h).calendar && slash != std::string_view::npos && ParseUint(rest.substr(0, slash), &year) &&
        ParseUint(rest.substr(slash + 1), &month) && year >= 1 && year <= 999999 && month >= 1 &&
        month <= 12) {
      return Calendar(h, year, static_cast<uint32_t>(month));
    }
    return NotFound();
  }
  // "/<slug>/c<c>/p<p>.html": p and c must agree and the slug must match.
  size_t c_pos = path.find("/c", 1);
  size_t p_pos = c_pos == std::string_view::npos ? c_pos : path.find("/p", c_pos + 2);
  if (p_pos == std::string_view::npos || path.size() < 5 ||
      path.substr(path.size() - 5) != ".html") {
    return NotFound();
  }
  uint64_t c = 0, p = 0;
  if (!ParseUint(path.substr(c_pos + 2, p_pos - c_pos - 2), &c) ||
      !ParseUint(path.substr(p_pos + 2, path.size() - 5 - p_pos - 2), &p) || p == 0 ||
      p >= PagesOnHost(h) || p / options_.cluster_size != c || PagePath(h, p) != path) {
    return NotFound();
  }
  return Page(h, p, sid);
}

uint64_t SyntheticWeb::WriteLabels(uint32_t topic, std::ostream& out) const {
  const std::string& name = TopicNames().at(topic);
  std::vector<std::pair<std::string, uint32_t>> hosts;
  for (uint32_t h = 0; h < options_.hosts; ++h) hosts.emplace_back(HostName(h), h);
  std::sort(hosts.begin(), hosts.end());
  out << "url\trelevant\treason\n";
  uint64_t relevant = 0;
  std::vector<std::pair<std::string, uint64_t>> rows;
  for (const auto& [host_name, h] : hosts) {
    rows.clear();
    const uint64_t n = PagesOnHost(h);
    for (uint64_t p = 0; p < n; ++p) rows.emplace_back(PageUrl(h, p), p);
    std::sort(rows.begin(), rows.end());
    for (const auto& [url, p] : rows) {
      if (PageTopic(h, p) == topic) {
        ++relevant;
        out << url << "\t1\ttopic=" << name << (PageTunnelled(h, p) ? ";tunnelled\n" : "\n");
      } else {
        out << url << "\t0\t\n";
      }
    }
  }
  return relevant;
}

void SyntheticWeb::WriteHomes(std::ostream& out) const {
  out << "host\thome_url\trole\n";
  for (uint32_t h = 0; h < options_.hosts; ++h) {
    // A script-built host's role names its style ("home js:api").
    const JsStyle js = HostJsStyle(h);
    out << HostName(h) << "\thttp://" << HostName(h) << "/index.html\thome"
        << (js == JsStyle::kStatic ? "" : std::string(" js:") + JsStyleName(js)) << "\n";
  }
}

}  // namespace topicrawl::web
