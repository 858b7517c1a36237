// End to end: `topicrawl web evolve` on a generated news-like web (two
// hosts, sections and articles), then `web serve --round K` with the real
// nginx on free loopback ports for every round, fetched with curl, checked
// against `web truth` and eval::ReadRoundTruth:
//  * truth new/changed/unchanged pages answer 200, gone pages 404 or 410 as
//    the overlay says, pages not yet published 404;
//  * `changed` <=> the bytes differ from round K-1, `unchanged` <=> equal;
//  * no page served in round K links to a page not yet published in K, and
//    every page new in K is linked from a hub of K;
//  * same seed -> byte-identical rounds; bad input -> clear errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/test_require.h"
#include "eval/round_truth.h"
#include "web/html_links.h"
#include "web/subprocess.h"

namespace topicrawl::web {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void Spit(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string Para(int i, const std::string& topic) {
  return "<p>Paragraph " + std::to_string(i) + " about " + topic +
         ": routers forward packets between networks using tables of routes.</p>\n";
}

// news.test/ : index -> 6 sections -> 15 articles each ("a 0.html" has a
// space); blog.test/b/ : index -> 12 posts.
void MakeWeb(const std::string& d) {
  Spit(d + "/manifest.tsv",
       "host\turl_prefix\tpackage\thtml_root\texclude\n"
       "news.test\t/\tnews-doc\tusr/share/doc/news\t\n"
       "blog.test\t/b/\tblog-doc\tusr/share/doc/blog\t\n");
  const std::string news = d + "/root/usr/share/doc/news";
  std::string index = "<html><body><h1>News</h1>\n" + Para(0, "home");
  for (int s = 0; s < 6; ++s) {
    const std::string sec = "s" + std::to_string(s);
    index += "<a href=\"" + sec + "/\">Section " + sec + "</a>\n";
    std::string section = "<html><body><h1>" + sec + "</h1>\n" + Para(1, sec) + "<a href=\"../\">Home</a>\n";
    for (int a = 0; a < 15; ++a) {
      std::string file = "a " + std::to_string(a) + ".html";
      std::string href = "a%20" + std::to_string(a) + ".html";
      section += "<p><a href=\"" + href + "\">Article " + std::to_string(a) + "</a></p>\n";
      std::string article = "<html><head><title>" + sec + " " + std::to_string(a) +
                            "</title></head><body>\n<a href=\"index.html\">Up</a> <a href=\"/\">Home</a>\n";
      for (int p = 0; p < 4; ++p) article += Para(p, sec + " article " + std::to_string(a));
      // Articles link their next sibling too (a second path to most pages).
      if (a + 1 < 15) article += "<p><a href=\"a%20" + std::to_string(a + 1) + ".html\">next</a></p>\n";
      article += "</body></html>\n";
      Spit(news + "/" + sec + "/" + file, article);
    }
    section += "</body></html>\n";
    Spit(news + "/" + sec + "/index.html", section);
  }
  index += "<a href=\"https://blog.test/b/\">Blog</a></body></html>\n";
  Spit(news + "/index.html", index);
  const std::string blog = d + "/root/usr/share/doc/blog";
  std::string bindex = "<html><body>\n" + Para(0, "blog");
  for (int p = 0; p < 12; ++p) {
    bindex += "<a href=\"p" + std::to_string(p) + ".html\">Post</a>\n";
    std::string post = "<html><body><a href=\"index.html\">Blog</a>\n";
    for (int k = 0; k < 3; ++k) post += Para(k, "post " + std::to_string(p));
    post += "</body></html>\n";
    Spit(blog + "/p" + std::to_string(p) + ".html", post);
  }
  bindex += "</body></html>\n";
  Spit(blog + "/index.html", bindex);
  Spit(d + "/homes.tsv", "host\thome_url\trole\nnews.test\thttp://news.test/index.html\thome\n"
                         "blog.test\thttp://blog.test/b/index.html\thome\n");
}

// url -> (code, body) of one served round.
struct Fetch {
  int code = 0;
  std::string body;
};

class WebEvolveIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists("/usr/sbin/nginx") || RunCommand({"curl", "--version"}, Captured("/dev/null")).exit_code != 0) {
      skip_ = true;
      return;
    }
    dir_ = (fs::temp_directory_path() / ("web_evolve_it_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir_);
    base_ = dir_ + "/base";
    evo_ = dir_ + "/evo";
    MakeWeb(base_);
    setup_ = Run({"web", "index", "--manifest", base_ + "/manifest.tsv", "--root", base_ + "/root", "--out",
                  base_ + "/site-index.tsv"});
    if (!setup_.ok()) return;
    setup_ = Run(EvolveArgs(evo_, "5"));
  }
  static void TearDownTestSuite() {
    if (skip_) return;
    Run({"web", "stop", "--dir", evo_});
    if (std::getenv("TOPICRAWL_KEEP_TEST_DIR") == nullptr) fs::remove_all(dir_);  // set it to inspect
  }
  void SetUp() override {
    if (skip_) TOPICRAWL_SKIP_UNLESS_REQUIRED("nginx or curl not installed");
    ASSERT_TRUE(setup_.ok()) << setup_.output;
  }

  static std::vector<std::string> EvolveArgs(const std::string& out, const std::string& seed) {
    return {"web", "evolve", "--dir", base_, "--out", out, "--rounds", "3", "--seed", seed,
            "--new-rate", "0.06", "--change-rate", "0.2", "--gone-rate", "0.03", "--homes",
            base_ + "/homes.tsv"};
  }
  static RunResult Run(std::vector<std::string> args) {
    args.insert(args.begin(), TOPICRAWL_BINARY);
    return RunCommand(args, Captured(dir_ + "/cmd.out"));
  }

  static std::vector<std::string> Urls() {
    std::vector<std::string> urls;
    std::istringstream in(Slurp(base_ + "/site-index.tsv"));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) urls.push_back(line.substr(0, line.find('\t')));
    return urls;
  }

  // Serves round K and fetches every URL of the base web with one curl run.
  static std::map<std::string, Fetch> ServeAndFetch(int round, std::string* ca_out = nullptr) {
    std::map<std::string, Fetch> out;
    RunResult r = Run({"web", "serve", "--dir", evo_, "--round", std::to_string(round), "--port", "0",
                       "--tls-port", "0"});
    EXPECT_TRUE(r.ok()) << r.output;
    std::smatch m;
    static const std::regex kLine("crawl-args: (--connect-to :80:127\\.0\\.0\\.1:\\d+) "
                                  "(--connect-to :443:127\\.0\\.0\\.1:\\d+) --cacert (\\S+)\n");
    if (!std::regex_search(r.output, m, kLine)) {
      ADD_FAILURE() << r.output;
      return out;
    }
    connect_http_ = m[1].str().substr(13);
    connect_tls_ = m[2].str().substr(13);
    ca_ = m[3];
    if (ca_out != nullptr) *ca_out = ca_;
    const std::string bodies = dir_ + "/bodies";
    fs::remove_all(bodies);
    fs::create_directories(bodies);
    std::vector<std::string> urls = Urls();
    std::string config;
    for (size_t i = 0; i < urls.size(); ++i) {
      config += "url = \"" + urls[i] + "\"\noutput = \"" + bodies + "/" + std::to_string(i) + "\"\n";
    }
    Spit(dir_ + "/curl.cfg", config);
    RunResult c = RunCommand({"curl", "-s", "--connect-to", connect_http_, "-w", "%{http_code}\\n", "-K",
                              dir_ + "/curl.cfg"},
                             Captured(dir_ + "/curl.out"));
    EXPECT_TRUE(c.ok()) << c.output;
    std::istringstream codes(c.output);
    for (size_t i = 0; i < urls.size(); ++i) {
      Fetch f;
      codes >> f.code;
      f.body = Slurp(bodies + "/" + std::to_string(i));
      out[urls[i]] = f;
    }
    return out;
  }

  static std::map<std::string, std::string> Truth(int round, std::string* hubs = nullptr) {
    RunResult r = Run({"web", "truth", "--dir", evo_, "--round", std::to_string(round), "--hubs-out",
                       dir_ + "/hubs.tsv"});
    EXPECT_TRUE(r.ok()) << r.output;
    if (hubs != nullptr) *hubs = Slurp(dir_ + "/hubs.tsv");
    std::map<std::string, std::string> out;
    std::istringstream in(Slurp(dir_ + "/cmd.out"));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "url\tstate");
    while (std::getline(in, line)) {
      size_t tab = line.find('\t');
      if (tab != std::string::npos && line.rfind("http://", 0) == 0) out[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return out;
  }

  static inline bool skip_ = false;
  static inline std::string dir_, base_, evo_, ca_, connect_http_, connect_tls_;
  static inline RunResult setup_;
};

TEST_F(WebEvolveIntegrationTest, EveryRoundServesExactlyItsTruth) {
  std::map<std::string, Fetch> prev;
  std::map<std::string, size_t> totals;
  std::set<std::string> ever_served;
  for (int k = 0; k <= 3; ++k) {
    SCOPED_TRACE("round " + std::to_string(k));
    std::map<std::string, Fetch> now = ServeAndFetch(k);
    std::string hubs_text;
    std::map<std::string, std::string> truth = Truth(k, &hubs_text);
    ASSERT_EQ(now.size(), Urls().size());
    std::set<std::string> fresh, hidden;
    for (const auto& [url, f] : now) {
      auto t = truth.find(url);
      const std::string state = t == truth.end() ? "" : t->second;
      ++totals[state];
      if (state == "new" || state == "changed" || state == "unchanged") {
        EXPECT_EQ(f.code, 200) << url << " " << state;
      } else {
        EXPECT_TRUE(f.code == 404 || f.code == 410) << url << " " << f.code;
        if (state.empty()) hidden.insert(url);  // absent in K-1 and K: unpublished or gone earlier
      }
      if (state == "new") fresh.insert(url);
      if (k == 0) {
        EXPECT_TRUE(state == "new" || state.empty()) << url << " round 0 has only new pages";
      } else if (state == "changed") {
        EXPECT_EQ(prev[url].code, 200);
        EXPECT_NE(prev[url].body, f.body) << url;
      } else if (state == "unchanged") {
        EXPECT_EQ(prev[url].body, f.body) << url;
      } else if (state == "gone") {
        EXPECT_EQ(prev[url].code, 200) << url;
      } else if (state == "new") {
        EXPECT_NE(prev[url].code, 200) << url;
      }
    }
    // Links in round K never lead to a page that does not exist yet (or any
    // more, unless it went away: real sites keep dead links), and every new
    // page is linked from a listed hub.
    std::set<std::string> linked_new;
    std::set<std::string> hub_urls;
    std::istringstream hubs(hubs_text);
    std::string line;
    std::getline(hubs, line);
    EXPECT_EQ(line, "url\tnew_links");
    while (std::getline(hubs, line)) hub_urls.insert(line.substr(0, line.find('\t')));
    for (const auto& [url, f] : now) {
      if (f.code != 200) continue;
      bool links_new = false;
      for (const std::string& target : PageLinks(f.body, url)) {
        // Unpublished pages (absent now, never served before) are not linked.
        if (hidden.count(target) != 0 && ever_served.count(target) == 0) {
          ADD_FAILURE() << url << " links to unpublished " << target;
        }
        if (fresh.count(target) != 0 && target != url) {
          linked_new.insert(target);
          links_new = true;
        }
      }
      if (k > 0) {
        EXPECT_EQ(links_new, hub_urls.count(url) != 0) << url;
      }
    }
    if (k > 0) {
      EXPECT_EQ(linked_new, fresh);
      EXPECT_FALSE(fresh.empty());
    }
    for (const auto& [url, f] : now) {
      if (f.code == 200) ever_served.insert(url);
    }
    prev = std::move(now);
  }
  EXPECT_GT(totals["changed"], 10u);
  EXPECT_GT(totals["gone"], 0u);
  EXPECT_GT(totals[""], 10u);  // hidden pages in round 0
}

// Served versions are dated as time runs (nginx's Last-Modified is the
// file's mtime, and the `signals` round policy compares announced lastmods
// with it): every page file of round K is dated after every base page
// (here written just now) and after round K-1's. An evolution dated round
// K at 2026-01-01 + K days whatever the base's dates served edits older
// than the pages they replaced (the stale seed-2 web of
// docs/strategies/signals.md).
TEST_F(WebEvolveIntegrationTest, OverlayPagesAreDatedAfterThePagesTheyReplace) {
  auto newest_and_oldest = [](const std::string& dir) {
    fs::file_time_type newest = fs::file_time_type::min(), oldest = fs::file_time_type::max();
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      newest = std::max(newest, e.last_write_time());
      oldest = std::min(oldest, e.last_write_time());
    }
    return std::make_pair(newest, oldest);
  };
  fs::file_time_type before = newest_and_oldest(base_ + "/root").first;
  for (int k = 1; k <= 3; ++k) {
    const std::string pages = evo_ + "/rounds/" + std::to_string(k) + "/pages";
    ASSERT_TRUE(fs::exists(pages)) << pages;
    auto [newest, oldest] = newest_and_oldest(pages);
    ASSERT_NE(oldest, fs::file_time_type::max()) << "no page file in " << pages;
    EXPECT_GT(oldest, before) << "round " << k;
    before = newest;
  }
}

TEST_F(WebEvolveIntegrationTest, HttpsAndDirectoryUrlsFollowTheOverlay) {
  std::map<std::string, std::string> truth = Truth(2);
  (void)ServeAndFetch(2);
  // A section index that changed is served from the overlay both as
  // .../index.html and as .../ over HTTPS.
  for (const auto& [url, state] : truth) {
    if (state != "changed" || url.size() < 11 || url.compare(url.size() - 11, 11, "/index.html") != 0) continue;
    std::string dir_url = "https" + url.substr(4, url.size() - 4 - 10);
    RunResult a = RunCommand({"curl", "-s", "--connect-to", connect_tls_, "--cacert", ca_, dir_url},
                             Captured(dir_ + "/a.out"));
    RunResult b = RunCommand({"curl", "-s", "--connect-to", connect_http_, url}, Captured(dir_ + "/b.out"));
    ASSERT_TRUE(a.ok() && b.ok()) << a.output;
    EXPECT_EQ(a.output, b.output);
    EXPECT_THAT(a.output, HasSubstr("</html>"));
    return;
  }
  FAIL() << "no changed index page in round 2 with seed 5: the test needs one";
}

TEST_F(WebEvolveIntegrationTest, TwoRoundsServedAtOnceFromSeparateInstances) {
  (void)ServeAndFetch(0);  // round 0 from E itself
  const std::string round0_port = connect_http_;
  RunResult r = Run({"web", "serve", "--dir", evo_, "--round", "1", "--instance", dir_ + "/inst1", "--port", "0",
                     "--tls-port", "0"});
  ASSERT_TRUE(r.ok()) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--cacert " + dir_ + "/inst1/ca.pem"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex("--connect-to (:80:127\\.0\\.0\\.1:\\d+)")));
  std::map<std::string, std::string> truth = Truth(1);
  size_t checked = 0;
  for (const auto& [url, state] : truth) {
    if (state != "new") continue;
    auto code = [&](const std::string& connect) {
      return RunCommand({"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--connect-to", connect, url},
                        Captured(dir_ + "/code.out")).output;
    };
    EXPECT_EQ(code(round0_port), "404") << url;
    EXPECT_EQ(code(m[1].str()), "200") << url;
    ++checked;
  }
  EXPECT_GT(checked, 0u);
  EXPECT_TRUE(Run({"web", "stop", "--dir", dir_ + "/inst1"}).ok());
}

TEST_F(WebEvolveIntegrationTest, TruthReaderAgreesWithWebTruth) {
  for (int k = 0; k <= 3; ++k) {
    auto t = eval::ReadRoundTruth(evo_, k);
    ASSERT_TRUE(t.ok()) << t.status().message();
    std::map<std::string, std::string> cli = Truth(k);
    ASSERT_EQ(t->state.size(), cli.size());
    for (const auto& [url, state] : cli) EXPECT_EQ(eval::PageChangeName(t->state.at(url)), state);
  }
  EXPECT_THAT(eval::ReadRoundTruth(evo_, 4).status().message(), HasSubstr("out of range"));
}

// truth/rates.tsv (the bench-only oracle's input): a page that changes in
// some round has a positive true change probability; a page with none never
// changes; a hub of a round (present the round before) has hub_share > 0.
TEST_F(WebEvolveIntegrationTest, TrueRatesAgreeWithTheTruth) {
  std::istringstream in(Slurp(evo_ + "/truth/rates.tsv"));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "url\tchange_p\tedit_p\thub_share");
  std::map<std::string, std::array<double, 3>> rates;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string url;
    std::array<double, 3> r{};
    row >> url >> r[0] >> r[1] >> r[2];
    for (double v : r) EXPECT_TRUE(v >= 0 && v <= 1) << line;
    EXPECT_NEAR(r[0], 1 - (1 - r[1]) * (1 - r[2]), 1e-5) << line;
    rates[url] = r;
  }
  ASSERT_FALSE(rates.empty());
  size_t changed = 0, hubs = 0;
  for (int k = 1; k <= 3; ++k) {
    std::string hubs_text;
    std::map<std::string, std::string> truth = Truth(k, &hubs_text);
    for (const auto& [url, state] : truth) {
      if (state != "changed") continue;
      ++changed;
      ASSERT_TRUE(rates.count(url)) << url << " changes in round " << k << " but has no rate";
      EXPECT_GT(rates[url][0], 0) << url;
    }
    std::istringstream h(hubs_text);
    std::getline(h, line);
    while (std::getline(h, line)) {
      const std::string url = line.substr(0, line.find('\t'));
      if (truth.count(url) && truth[url] != "new") {
        ++hubs;
        EXPECT_GT(rates[url][2], 0) << url << " is a hub of round " << k;
      }
    }
  }
  EXPECT_GT(changed, 0u);
  EXPECT_GT(hubs, 0u);
}

TEST_F(WebEvolveIntegrationTest, TruthCountsRelevantPagesWithLabels) {
  std::string labels = "url\trelevant\treason\n";
  for (const std::string& url : Urls()) labels += url + "\t" + (url.find("/s1/") != std::string::npos ? "1\ts1" : "0\t") + "\n";
  Spit(dir_ + "/labels.tsv", labels);
  RunResult r = RunCommand({TOPICRAWL_BINARY, "web", "truth", "--dir", evo_, "--round", "0", "--labels",
                            dir_ + "/labels.tsv"},
                           Captured(dir_ + "/labels.out"));
  ASSERT_TRUE(r.ok()) << r.output;
  std::map<std::string, std::string> truth = Truth(0);
  size_t relevant_new = 0;
  for (const auto& [url, state] : truth) relevant_new += url.find("/s1/") != std::string::npos;
  EXPECT_THAT(r.output, HasSubstr("round 0: new " + std::to_string(truth.size()) + " (relevant " +
                                  std::to_string(relevant_new) + ")"));
}

TEST_F(WebEvolveIntegrationTest, SameSeedSameRoundsOtherSeedOtherRounds) {
  ASSERT_TRUE(Run(EvolveArgs(dir_ + "/evo-same", "5")).ok());
  ASSERT_TRUE(Run(EvolveArgs(dir_ + "/evo-other", "6")).ok());
  auto tree = [](const std::string& root) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (!e.is_regular_file()) continue;
      std::string rel = fs::relative(e.path(), root).string();
      if (rel.rfind("rounds/", 0) == 0 || rel.rfind("truth/", 0) == 0) files[rel] = Slurp(e.path().string());
    }
    return files;
  };
  auto a = tree(evo_), b = tree(dir_ + "/evo-same"), c = tree(dir_ + "/evo-other");
  EXPECT_GT(a.size(), 10u);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == c);
}

TEST_F(WebEvolveIntegrationTest, BadInputGetsClearErrors) {
  // Not a built web.
  fs::create_directories(dir_ + "/empty");
  RunResult r = Run({"web", "evolve", "--dir", dir_ + "/empty", "--out", dir_ + "/x", "--rounds", "2"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.output, HasSubstr("is not a built web"));
  EXPECT_FALSE(fs::exists(dir_ + "/x"));
  // Evolving over an existing evolution: refused, nothing touched.
  std::string before = Slurp(evo_ + "/truth/round-1.tsv");
  r = Run(EvolveArgs(evo_, "9"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.output, HasSubstr("already holds an evolved web"));
  EXPECT_EQ(Slurp(evo_ + "/truth/round-1.tsv"), before);
  // Round out of range.
  r = Run({"web", "serve", "--dir", evo_, "--round", "4", "--port", "0", "--tls-port", "0"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.output, HasSubstr("round 4 is out of range"));
  r = Run({"web", "truth", "--dir", evo_, "--round", "-1"});
  EXPECT_THAT(r.output, HasSubstr("out of range"));
  // --round on a web that was never evolved.
  r = Run({"web", "serve", "--dir", base_, "--round", "0", "--port", "0", "--tls-port", "0"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.output, HasSubstr("not an evolved web"));
  // An evolved web served without --round.
  r = Run({"web", "serve", "--dir", evo_, "--port", "0", "--tls-port", "0"});
  EXPECT_THAT(r.output, HasSubstr("pass --round"));
  // An interrupted evolution: every use fails, a new run needs --force.
  const std::string cut = dir_ + "/evo-cut";
  ASSERT_TRUE(Run(EvolveArgs(cut, "5")).ok());
  Spit(cut + "/EVOLVING", "topicrawl web evolve (simulated interruption)\n");
  fs::remove_all(cut + "/truth");
  for (auto args : std::vector<std::vector<std::string>>{
           {"web", "serve", "--dir", cut, "--round", "1", "--port", "0", "--tls-port", "0"},
           {"web", "truth", "--dir", cut, "--round", "1"}}) {
    r = Run(args);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_THAT(r.output, HasSubstr("interrupted evolution"));
  }
  EXPECT_THAT(eval::ReadRoundTruth(cut, 1).status().message(), HasSubstr("interrupted"));
  r = Run(EvolveArgs(cut, "5"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.output, HasSubstr("interrupted evolution"));
  std::vector<std::string> args = EvolveArgs(cut, "5");
  args.push_back("--force");
  r = Run(args);
  EXPECT_TRUE(r.ok()) << r.output;
  EXPECT_FALSE(fs::exists(cut + "/EVOLVING"));
  EXPECT_TRUE(eval::ReadRoundTruth(cut, 1).ok());
}

}  // namespace
}  // namespace topicrawl::web
