#include "eval/round_metrics.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "eval/round_truth.h"
#include "eval/sqlite_handles.h"
#include "eval/svg_plot.h"

namespace topicrawl::eval {
namespace {

// fetches.state values (core/url_state.h; eval reads the integers).
enum : int { kNew = 1, kChanged = 2, kTrivial = 3, kUnchanged = 4, kGone = 5, kFailed = 6 };

struct Fetch {
  int round;
  int state;
  int http_code;
  int64_t bytes;
  bool near_dup;
};

std::string HostOfLabelUrl(const std::string& url) {
  size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  size_t end = url.find('/', start);
  return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

bool Successful(int state) {
  return state == kNew || state == kChanged || state == kTrivial || state == kUnchanged;
}

// What the crawl did, by label URL, and what the sites announced.
struct CrawlRounds {
  std::unordered_map<std::string, std::vector<Fetch>> by_url;  // by round
  std::set<std::string> crawled_hosts, stored_hosts;
  std::unordered_map<int, std::unordered_set<std::string>> announced;  // round -> URLs
  std::unordered_map<int, std::unordered_map<std::string, std::string>> trust_state;
};

// meta schema_version and round.
Status ReadRoundMeta(sqlite3* db, const std::string& path, const std::string& crawl_dir,
                     int* schema, int* round) {
  Status s = ForEachRow(db, path, "SELECT key, value FROM meta WHERE key IN ('schema_version','round')",
                        [&](sqlite3_stmt* st) {
                          const int v = sqlite3_column_int(st, 1);
                          (ColumnText(st, 0) == "round" ? *round : *schema) = v;
                        });
  if (!s.ok()) return Status::Error(crawl_dir + " is not a topicrawl crawl: " + s.message());
  return Status::Ok();
}

Status ReadFetches(sqlite3* db, const std::string& path, CrawlRounds* c) {
  Status s = ForEachRow(
      db, path,
      "SELECT f.url, h.round, h.state, h.http_code, h.bytes, p.near_dup_of IS NOT NULL "
      "FROM fetches h JOIN frontier f ON f.url_id = h.url_id "
      "LEFT JOIN pages p ON p.id = h.page_id ORDER BY h.url_id, h.round",
      [c](sqlite3_stmt* st) {
        std::string url = CanonicalizeLabelUrl(ColumnText(st, 0));
        c->crawled_hosts.insert(HostOfLabelUrl(url));
        if (Successful(sqlite3_column_int(st, 2))) c->stored_hosts.insert(HostOfLabelUrl(url));
        c->by_url[url].push_back({sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
                                  sqlite3_column_int(st, 3), sqlite3_column_int64(st, 4),
                                  sqlite3_column_int(st, 5) != 0});
      });
  if (!s.ok()) return s;
  for (auto& [url, fetches] : c->by_url) {
    std::stable_sort(fetches.begin(), fetches.end(),
                     [](const Fetch& a, const Fetch& b) { return a.round < b.round; });
  }
  return Status::Ok();
}

// What the sites announced before each round, and the policy's host trust
// (tables absent in crawls without announcements).
Status ReadAnnouncements(sqlite3* db, const std::string& path, CrawlRounds* c) {
  auto t = Prepare(db, "SELECT count(*) FROM sqlite_master WHERE name = 'announcements'");
  const bool has_announcements = t.ok() && sqlite3_step(t->get()) == SQLITE_ROW &&
                                 sqlite3_column_int(t->get(), 0) > 0;
  if (!has_announcements) return Status::Ok();
  Status s = ForEachRow(db, path, "SELECT round, url FROM announcements", [c](sqlite3_stmt* st) {
    c->announced[sqlite3_column_int(st, 0)].insert(CanonicalizeLabelUrl(ColumnText(st, 1)));
  });
  if (!s.ok()) return s;
  return ForEachRow(db, path, "SELECT round, host, state FROM host_trust", [c](sqlite3_stmt* st) {
    c->trust_state[sqlite3_column_int(st, 0)][ColumnText(st, 1)] = ColumnText(st, 2);
  });
}

// host -> lastmod habit of the hosts that announce (truth/announce-hosts.tsv).
std::unordered_map<std::string, std::string> ReadLastmodHabits(const std::string& truth_dir) {
  std::unordered_map<std::string, std::string> habits;
  std::ifstream in(truth_dir + "/truth/announce-hosts.tsv");
  std::string line;
  while (std::getline(in, line)) {
    size_t a = line.find('\t'), b = line.rfind('\t');
    if (a == std::string::npos || a == b || line.substr(0, a) == "host") continue;
    if (line.substr(a + 1, b - a - 1) == "1") habits[line.substr(0, a)] = line.substr(b + 1);
  }
  return habits;
}

// Rounds 0..last of the truth; refused when round 0 names none of the
// crawled hosts; with scope_hosts only the hosts the crawl stored pages of.
StatusOr<std::vector<RoundTruth>> ReadTruths(const std::string& truth_dir,
                                             const std::string& crawl_dir, int last,
                                             const CrawlRounds& c, bool scope_hosts) {
  std::vector<RoundTruth> truths;
  for (int k = 0; k <= last; ++k) {
    auto truth = ReadRoundTruth(truth_dir, k);
    if (!truth.ok()) return truth.status();
    if (k == 0) {
      size_t known_host = 0;
      std::set<std::string> truth_hosts;
      for (const auto& [url, state] : truth->state) truth_hosts.insert(HostOfLabelUrl(url));
      for (const std::string& h : truth_hosts) known_host += c.crawled_hosts.count(h);
      if (!truth->state.empty() && known_host == 0) {
        return Status::Error("the truth in " + truth_dir + " is for other hosts than the crawl " +
                             crawl_dir + " (e.g. " + *truth_hosts.begin() + ")");
      }
    }
    if (scope_hosts) {
      for (auto it = truth->state.begin(); it != truth->state.end();) {
        it = c.stored_hosts.count(HostOfLabelUrl(it->first)) ? std::next(it)
                                                               : truth->state.erase(it);
      }
    }
    truths.push_back(std::move(truth).value());
  }
  return truths;
}

// The crawl's view of round k, per label URL (several crawled URLs may
// share one label URL: the first successful fetch wins), and the round's
// fetch counts.
std::unordered_map<std::string, const Fetch*> FetchesOfRound(const CrawlRounds& c, int k,
                                                             RoundMetrics* m) {
  std::unordered_map<std::string, const Fetch*> in_round;
  for (const auto& [url, fetches] : c.by_url) {
    for (const Fetch& f : fetches) {
      if (f.round != k) continue;
      ++m->fetches;
      m->bytes += f.bytes;
      if (f.http_code == 304) ++m->not_modified;
      if (f.near_dup && (f.state == kNew || f.state == kChanged)) ++m->near_duplicates;
      auto [it, added] = in_round.emplace(url, &f);
      if (!added && !Successful(it->second->state) && Successful(f.state)) it->second = &f;
    }
  }
  return in_round;
}

// One truth event of round k against the crawl's fetch of it (f, or null).
void CountTruthEvent(const CrawlRounds& c, int k, const std::string& url, PageChange state,
                     const Fetch* f, const LabelSet* labels, RoundMetrics* m) {
  switch (state) {
    case PageChange::kNew: {
      ++m->new_total;
      const bool found = f && Successful(f->state);
      m->new_found += found;
      auto announced = c.announced.find(k);
      if (found && announced != c.announced.end() && announced->second.count(url)) {
        ++m->new_found_announced;
      } else if (found) {
        ++m->new_found_linked;
      }
      const bool relevant = labels && labels->LookupCanonical(url).value_or(false);
      if (relevant) {
        ++m->new_relevant_total;
        m->new_relevant_found += found && !f->near_dup;
      }
      break;
    }
    case PageChange::kChanged:
      ++m->changed_total;
      if (f && f->state == kChanged) ++m->changed_as_changed;
      if (f && f->state == kTrivial) ++m->changed_as_trivial;
      break;
    case PageChange::kGone:
      ++m->gone_total;
      m->gone_found += f && f->state == kGone;
      break;
    case PageChange::kUnchanged:
      break;
  }
  if (state != PageChange::kGone) {
    // Served in k: has the crawl ever fetched it by the end of k?
    auto all = c.by_url.find(url);
    bool seen = false;
    if (all != c.by_url.end()) {
      for (const Fetch& g : all->second) seen |= g.round <= k;
    }
    m->unaccounted += !seen;
  }
}

// Freshness at the end of round k: the stored state of every URL with a
// successful or gone fetch by then, against the truth events after that
// fetch. Sets m->stored.
double Freshness(const CrawlRounds& c, const std::vector<RoundTruth>& truths, int k,
                 RoundMetrics* m) {
  int64_t fresh = 0;
  for (const auto& [url, fetches] : c.by_url) {
    int j = -1;
    for (const Fetch& f : fetches) {
      if (f.round > k) break;
      if (Successful(f.state) || f.state == kGone) j = f.round;
    }
    if (j < 0) continue;
    ++m->stored;
    bool event = false;
    for (int r = j + 1; r <= k && !event; ++r) {
      auto it = truths[static_cast<size_t>(r)].state.find(url);
      event = it != truths[static_cast<size_t>(r)].state.end() &&
              it->second != PageChange::kUnchanged;
    }
    fresh += !event;
  }
  return m->stored > 0 ? static_cast<double>(fresh) / static_cast<double>(m->stored) : 0;
}

RoundMetrics MetricsOfRound(const CrawlRounds& c, const std::vector<RoundTruth>& truths, int k,
                            const std::unordered_map<std::string, std::string>& habits,
                            const LabelSet* labels) {
  RoundMetrics m;
  m.round = k;
  const std::unordered_map<std::string, const Fetch*> in_round = FetchesOfRound(c, k, &m);
  for (const auto& [url, state] : truths[static_cast<size_t>(k)].state) {
    auto it = in_round.find(url);
    CountTruthEvent(c, k, url, state, it == in_round.end() ? nullptr : it->second, labels, &m);
  }
  m.changed_found = m.changed_as_changed + m.changed_as_trivial;
  if (auto trust = c.trust_state.find(k); trust != c.trust_state.end()) {
    for (const auto& [host, state] : trust->second) {
      auto h = habits.find(host);
      if (h == habits.end() || h->second == "none") continue;
      ++m.hosts_judged;
      m.trust_right += (h->second == "accurate") == (state == "trusted");
    }
  }
  m.fetches_per_new = m.new_found > 0 ? static_cast<double>(m.fetches) / m.new_found : 0;
  m.freshness = Freshness(c, truths, k, &m);
  return m;
}

}  // namespace

StatusOr<std::vector<RoundMetrics>> ComputeRoundMetrics(const std::string& crawl_dir,
                                                        const std::string& truth_dir,
                                                        const LabelSet* labels,
                                                        bool scope_hosts) {
  const std::string path = crawl_dir + "/crawl.db";
  if (!std::filesystem::is_regular_file(path)) {
    return Status::Error(crawl_dir + " is not a crawl directory (no crawl.db)");
  }
  StatusOr<DbPtr> db = OpenReadOnly(path);
  if (!db.ok()) return db.status();
  int schema = 0, crawl_round = 0;
  if (Status s = ReadRoundMeta(db->get(), path, crawl_dir, &schema, &crawl_round); !s.ok()) {
    return s;
  }
  if (schema < 3) {
    return Status::Error(crawl_dir + " has no round history (schema " + std::to_string(schema) +
                         "; rounds need schema 3)");
  }
  auto last_truth = TruthRounds(truth_dir);
  if (!last_truth.ok()) return last_truth.status();
  const int last = std::min(crawl_round, *last_truth);

  CrawlRounds crawl;
  if (Status s = ReadFetches(db->get(), path, &crawl); !s.ok()) return s;
  if (Status s = ReadAnnouncements(db->get(), path, &crawl); !s.ok()) return s;
  const std::unordered_map<std::string, std::string> habits = ReadLastmodHabits(truth_dir);
  auto truths = ReadTruths(truth_dir, crawl_dir, last, crawl, scope_hosts);
  if (!truths.ok()) return truths.status();
  std::vector<RoundMetrics> out;
  for (int k = 0; k <= last; ++k) out.push_back(MetricsOfRound(crawl, *truths, k, habits, labels));
  return out;
}

std::string RoundMetricsToTable(const std::vector<RoundMetrics>& rounds) {
  std::string s;
  char line[512];
  std::snprintf(line, sizeof(line),
                "%-5s %8s %11s %6s %15s %15s %21s %15s %9s %8s %9s\n", "round", "fetches",
                "bytes", "304%", "new found", "new relevant", "changed (ch+triv)", "gone",
                "fetch/new", "fresh", "unacct");
  s += line;
  auto frac = [](int64_t a, int64_t b) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%lld/%lld %3.0f%%", static_cast<long long>(a),
                  static_cast<long long>(b), b > 0 ? 100.0 * a / b : 0.0);
    return std::string(buf);
  };
  for (const RoundMetrics& m : rounds) {
    char changed[96];
    std::snprintf(changed, sizeof(changed), "%s (%lld+%lld)",
                  frac(m.changed_found, m.changed_total).c_str(),
                  static_cast<long long>(m.changed_as_changed),
                  static_cast<long long>(m.changed_as_trivial));
    std::snprintf(line, sizeof(line), "%-5d %8lld %11lld %5.1f%% %15s %15s %21s %15s %9.2f %7.1f%% %9lld\n",
                  m.round, static_cast<long long>(m.fetches), static_cast<long long>(m.bytes),
                  m.fetches > 0 ? 100.0 * m.not_modified / m.fetches : 0.0,
                  frac(m.new_found, m.new_total).c_str(),
                  frac(m.new_relevant_found, m.new_relevant_total).c_str(), changed,
                  frac(m.gone_found, m.gone_total).c_str(), m.fetches_per_new,
                  100.0 * m.freshness, static_cast<long long>(m.unaccounted));
    s += line;
  }
  bool announce = false;
  for (const RoundMetrics& m : rounds) announce |= m.new_found_announced > 0 || m.hosts_judged > 0;
  if (!announce) return s;
  s += "round  new found via sitemaps/feeds  via links  lastmod trust right\n";
  for (const RoundMetrics& m : rounds) {
    std::snprintf(line, sizeof(line), "%-5d %29lld %10lld  %s\n", m.round,
                  static_cast<long long>(m.new_found_announced),
                  static_cast<long long>(m.new_found_linked),
                  frac(m.trust_right, m.hosts_judged).c_str());
    s += line;
  }
  return s;
}

std::string RoundMetricsToJson(const std::vector<RoundMetrics>& rounds) {
  nlohmann::json arr = nlohmann::json::array();
  for (const RoundMetrics& m : rounds) {
    arr.push_back({{"round", m.round},
                   {"fetches", m.fetches},
                   {"bytes", m.bytes},
                   {"not_modified", m.not_modified},
                   {"new_found", m.new_found},
                   {"new_total", m.new_total},
                   {"changed_found", m.changed_found},
                   {"changed_total", m.changed_total},
                   {"changed_as_changed", m.changed_as_changed},
                   {"changed_as_trivial", m.changed_as_trivial},
                   {"gone_found", m.gone_found},
                   {"gone_total", m.gone_total},
                   {"new_relevant_found", m.new_relevant_found},
                   {"new_relevant_total", m.new_relevant_total},
                   {"near_duplicates", m.near_duplicates},
                   {"fetches_per_new", m.fetches_per_new},
                   {"stored", m.stored},
                   {"unaccounted", m.unaccounted},
                   {"new_found_announced", m.new_found_announced},
                   {"new_found_linked", m.new_found_linked},
                   {"hosts_judged", m.hosts_judged},
                   {"trust_right", m.trust_right},
                   {"freshness", m.freshness}});
  }
  return nlohmann::json{{"rounds", arr}}.dump(2);
}

std::string RenderRoundChart(const std::vector<RoundMetrics>& rounds, const std::string& title) {
  PlotSeries newp{"new pages found", {}, {}, {}, {}, false, ""};
  PlotSeries changed{"changed pages detected", {}, {}, {}, {}, false, ""};
  PlotSeries gone{"gone pages detected", {}, {}, {}, {}, false, ""};
  PlotSeries fresh{"freshness", {}, {}, {}, {}, false, ""};
  PlotSeries nm{"304 share of fetches", {}, {}, {}, {}, true, ""};
  auto add = [](PlotSeries* s, int x, int64_t a, int64_t b) {
    if (b <= 0) return;
    s->x.push_back(x);
    s->y.push_back(static_cast<double>(a) / static_cast<double>(b));
  };
  for (const RoundMetrics& m : rounds) {
    add(&newp, m.round, m.new_found, m.new_total);
    add(&changed, m.round, m.changed_found, m.changed_total);
    add(&gone, m.round, m.gone_found, m.gone_total);
    fresh.x.push_back(m.round);
    fresh.y.push_back(m.freshness);
    add(&nm, m.round, m.not_modified, m.fetches);
  }
  ChartOptions o;
  o.title = title;
  o.x_label = "round";
  o.y_label = "share";
  o.y_min = 0;
  o.y_max = 1;
  return RenderLineChart(o, {newp, changed, gone, fresh, nm});
}

}  // namespace topicrawl::eval
