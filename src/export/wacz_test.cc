#include "export/wacz.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <sqlite3.h>
#include <zip.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "export/cdxj.h"
#include "support/export_test_util.h"
#include "nlohmann/json.hpp"
#include "store/crawl_store.h"
#include "support/store_test_util.h"
#include "store/warc_reader.h"

namespace topicrawl {
namespace {

using testing::MakeTempDir;
using testing::RemoveTree;

struct ZipEntry {
  std::string data;
  uint16_t method = 0;
};

std::map<std::string, ZipEntry> ReadZip(const std::string& path) {
  std::map<std::string, ZipEntry> out;
  int err = 0;
  zip_t* za = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &err);
  EXPECT_NE(za, nullptr) << "zip_open error " << err;
  if (za == nullptr) return out;
  for (zip_int64_t i = 0; i < zip_get_num_entries(za, 0); ++i) {
    zip_stat_t st;
    zip_stat_index(za, i, 0, &st);
    ZipEntry e;
    e.method = st.comp_method;
    e.data.resize(st.size);
    zip_file_t* f = zip_fopen_index(za, i, 0);
    EXPECT_EQ(zip_fread(f, e.data.data(), st.size), static_cast<zip_int64_t>(st.size));
    zip_fclose(f);
    out[st.name] = std::move(e);
  }
  zip_close(za);
  return out;
}

std::string Sha256(const std::string& data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
  std::string hex = "sha256:";
  for (unsigned i = 0; i < len; ++i) {
    char b[3];
    std::snprintf(b, sizeof(b), "%02x", md[i]);
    hex += b;
  }
  return hex;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

class WaczTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    crawl_ = dir_ + "/crawl";
    ASSERT_TRUE(testing::MakeExportCrawl(crawl_, 40, true).ok());
  }
  void TearDown() override { RemoveTree(dir_); }

  // Checks the WACZ structure and returns its entries.
  std::map<std::string, ZipEntry> CheckWacz(const std::string& path) {
    auto zip = ReadZip(path);
    EXPECT_TRUE(zip.count("datapackage.json"));
    EXPECT_TRUE(zip.count("datapackage-digest.json"));
    nlohmann::json dp = nlohmann::json::parse(zip["datapackage.json"].data);
    EXPECT_EQ(dp["wacz_version"], "1.1.1");
    EXPECT_EQ(dp["profile"], "data-package");
    nlohmann::json digest = nlohmann::json::parse(zip["datapackage-digest.json"].data);
    EXPECT_EQ(digest["path"], "datapackage.json");
    EXPECT_EQ(digest["hash"], Sha256(zip["datapackage.json"].data));
    std::set<std::string> listed;
    for (const auto& r : dp["resources"]) {
      const std::string p = r["path"];
      listed.insert(p);
      EXPECT_TRUE(zip.count(p)) << p;
      EXPECT_EQ(r["hash"], Sha256(zip[p].data)) << p;
      EXPECT_EQ(r["bytes"], zip[p].data.size()) << p;
      if (p.rfind("archive/", 0) == 0) {
        EXPECT_EQ(zip[p].method, ZIP_CM_STORE) << p;
      }
    }
    EXPECT_EQ(listed.size() + 2, zip.size());
    EXPECT_TRUE(listed.count("indexes/index.cdxj"));
    EXPECT_TRUE(listed.count("pages/pages.jsonl"));
    EXPECT_FALSE(std::filesystem::exists(path + ".parts.tmp"));
    return zip;
  }

  // Every CDXJ line resolves to its record in the WACZ's own WARC files.
  void CheckIndexResolves(std::map<std::string, ZipEntry>& zip) {
    const std::vector<std::string> lines = Lines(zip["indexes/index.cdxj"].data);
    EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
    for (const std::string& line : lines) {
      nlohmann::json j = nlohmann::json::parse(line.substr(line.find('{')));
      const std::string name = "archive/" + j["filename"].get<std::string>();
      ASSERT_TRUE(zip.count(name)) << name;
      const std::string tmp = dir_ + "/one.warc.gz";
      std::ofstream(tmp, std::ios::binary) << zip[name].data;
      auto rec = ReadWarcRecordAt(tmp, std::stoull(j["offset"].get<std::string>()));
      ASSERT_TRUE(rec.ok()) << rec.status().message();
      EXPECT_EQ(rec->Header("WARC-Target-URI"), j["url"].get<std::string>());
    }
  }

  std::string dir_, crawl_;
};

TEST_F(WaczTest, WholeCrawl) {
  const std::string out = dir_ + "/all.wacz";
  auto stats = WriteWacz(crawl_, out, {});
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  auto zip = CheckWacz(out);
  EXPECT_EQ(stats->pages, 32);
  EXPECT_EQ(stats->cdxj_lines, 35 + 17);
  // The crawl's WARC files are in the archive byte for byte.
  auto files = CrawlWarcFiles(crawl_);
  ASSERT_TRUE(files.ok());
  for (const std::string& f : *files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(zip["archive/" + std::filesystem::path(f).filename().string()].data, ss.str());
  }
  CheckIndexResolves(zip);
  const std::vector<std::string> pages = Lines(zip["pages/pages.jsonl"].data);
  ASSERT_EQ(pages.size(), 33u);
  EXPECT_EQ(nlohmann::json::parse(pages[0])["format"], "json-pages-1.0");
  nlohmann::json first = nlohmann::json::parse(pages[1]);
  EXPECT_EQ(first["url"], "http://h1.test/p1");
  EXPECT_EQ(first["ts"], "2023-11-14T22:13:20.001Z");
  EXPECT_EQ(first["title"], "Page 1");
  EXPECT_DOUBLE_EQ(first["relevance"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(first["link_score"].get<double>(), 0.25);
  EXPECT_TRUE(first.contains("why"));
}

TEST_F(WaczTest, RelevantOnlyKeepsTheRelevantPagesRecords) {
  const std::string out = dir_ + "/rel.wacz";
  WaczOptions options;
  options.relevant_only = true;
  options.beta = 0.75;  // relevance (k % 10) / 10: k ending in 8 or 9
  auto stats = WriteWacz(crawl_, out, options);
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  auto zip = CheckWacz(out);
  std::set<std::string> urls;
  for (int k = 1; k <= 40; ++k) {
    if (k % 7 != 0 && k % 11 != 0 && k % 10 >= 8) urls.insert(testing::TestPageUrl(k));
  }
  EXPECT_EQ(stats->pages, static_cast<int64_t>(urls.size()));
  const std::vector<std::string> lines = Lines(zip["indexes/index.cdxj"].data);
  EXPECT_EQ(lines.size(), urls.size());  // revisits are not page groups
  for (const std::string& line : lines) {
    nlohmann::json j = nlohmann::json::parse(line.substr(line.find('{')));
    EXPECT_TRUE(urls.count(j["url"])) << line;
  }
  CheckIndexResolves(zip);
  // Each rewritten WARC file parses and starts with the warcinfo record.
  for (auto& [name, e] : zip) {
    if (name.rfind("archive/", 0) != 0) continue;
    const std::string tmp = dir_ + "/x.warc.gz";
    std::ofstream(tmp, std::ios::binary) << e.data;
    std::vector<std::string> types;
    ASSERT_TRUE(ReadWarcFile(tmp, [&](ParsedWarcRecord& r) {
                  types.emplace_back(r.Header("WARC-Type"));
                  return true;
                }).ok());
    ASSERT_FALSE(types.empty());
    EXPECT_EQ(types[0], "warcinfo");
  }
}

// The records of a WARC file (gzip or zstd) as (record id, full text).
std::vector<std::pair<std::string, std::string>> Records(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> out;
  EXPECT_TRUE(ReadWarcFile(path, [&](ParsedWarcRecord& r) {
                std::string all = r.version;
                for (const WarcField& f : r.headers) all += "|" + f.name + "=" + f.value;
                out.emplace_back(std::string(r.Header("WARC-Record-ID")), all + "|" + r.block);
                return true;
              }).ok());
  return out;
}

// A crawl written with --warc-compression zstd: the WACZ holds gzip WARC
// files (ReplayWeb.page reads no zstd) with the very same records, and the
// index points into them.
TEST_F(WaczTest, ZstdCrawlIsRecompressedToGzip) {
  const std::string zcrawl = dir_ + "/zcrawl";
  ASSERT_TRUE(testing::MakeExportCrawl(zcrawl, 40, true, testing::ZstdTestWarcOptions()).ok());
  auto files = CrawlWarcFiles(zcrawl);
  ASSERT_TRUE(files.ok());
  ASSERT_GE(files->size(), 2u);  // before and after the dictionary
  const std::string out = dir_ + "/z.wacz";
  auto stats = WriteWacz(zcrawl, out, {});
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  auto zip = CheckWacz(out);
  EXPECT_EQ(stats->pages, 32);
  EXPECT_EQ(stats->cdxj_lines, 35 + 17);
  EXPECT_EQ(stats->warc_files, static_cast<int64_t>(files->size()));
  for (const std::string& f : *files) {
    const std::string name = std::filesystem::path(f).filename().string();
    ASSERT_TRUE(name.ends_with(".warc.zst"));
    const std::string gz = "archive/" + name.substr(0, name.size() - 4) + ".gz";
    ASSERT_TRUE(zip.count(gz)) << gz;
    EXPECT_EQ(zip[gz].data.substr(0, 2), "\x1f\x8b");  // gzip, not zstd
    const std::string tmp = dir_ + "/copy.warc.gz";
    std::ofstream(tmp, std::ios::binary) << zip[gz].data;
    EXPECT_EQ(Records(tmp), Records(f)) << name;
  }
  for (const auto& [name, e] : zip) EXPECT_FALSE(name.ends_with(".zst")) << name;
  CheckIndexResolves(zip);

  WaczOptions relevant;
  relevant.relevant_only = true;
  relevant.beta = 0.75;
  auto rel = WriteWacz(zcrawl, dir_ + "/zrel.wacz", relevant);
  ASSERT_TRUE(rel.ok()) << rel.status().message();
  auto rzip = CheckWacz(dir_ + "/zrel.wacz");
  CheckIndexResolves(rzip);
  int64_t responses = 0;
  for (auto& [name, e] : rzip) {
    if (name.rfind("archive/", 0) != 0) continue;
    EXPECT_TRUE(name.ends_with(".warc.gz")) << name;
    const std::string tmp = dir_ + "/r.warc.gz";
    std::ofstream(tmp, std::ios::binary) << e.data;
    auto records = Records(tmp);
    ASSERT_FALSE(records.empty());
    EXPECT_NE(records[0].second.find("WARC-Type=warcinfo"), std::string::npos) << name;
    for (const auto& r : records) responses += r.second.find("WARC-Type=response|") != std::string::npos;
  }
  EXPECT_EQ(responses, rel->pages);
}

// pages.jsonl lists each page's opt-out signals: from its response head,
// its head's <meta> elements and its host's robots.txt; none for a page
// without any.
TEST(WaczOptOutTest, PagesListTheirSignals) {
  const std::string dir = MakeTempDir();
  {
    auto store = CrawlStore::Open(dir + "/crawl", OpenMode::kCreate);
    ASSERT_TRUE(store.ok());
    const std::vector<std::pair<std::string, std::string>> variants = {
        {"X-Robots-Tag: noai, noarchive\r\n", ""},
        {"", "<meta name=robots content=noindex>"},
        {"tdm-reservation: 1\r\n", ""},
        {"", ""},
        {"", ""},  // h0.test: robots.txt Content-Usage train-ai=n
    };
    int k = 1;
    for (const auto& [header, meta] : variants) {
      PageRecord p = testing::MakeTestPage(k == 5 ? 10 : k);
      ++k;
      p.response_head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + header + "\r\n";
      p.body = "<html><head><title>t</title>" + meta + "</head><body><p>x</p></body></html>";
      ASSERT_TRUE((*store)->AddPage(std::move(p)).ok());
    }
    ASSERT_TRUE((*store)->AddHostFile("http://h0.test", "robots.txt", 200,
                                      "User-agent: *\nContent-Usage: train-ai=n\n").ok());
    ASSERT_TRUE((*store)->Close().ok());
  }
  auto stats = WriteWacz(dir + "/crawl", dir + "/o.wacz", {});
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  auto zip = ReadZip(dir + "/o.wacz");
  const std::vector<std::string> lines = Lines(zip["pages/pages.jsonl"].data);
  ASSERT_EQ(lines.size(), 6u);
  std::vector<nlohmann::json> p;
  for (size_t i = 1; i < lines.size(); ++i) p.push_back(nlohmann::json::parse(lines[i]));
  EXPECT_EQ(p[0]["optout"], nlohmann::json({"x-robots-tag: noai", "x-robots-tag: noarchive"}));
  EXPECT_EQ(p[0]["optout_reserved"], true);
  EXPECT_EQ(p[1]["optout"], nlohmann::json({"meta robots: noindex"}));
  EXPECT_EQ(p[2]["optout"], nlohmann::json({"tdm-reservation: 1"}));
  EXPECT_EQ(p[2]["optout_reserved"], true);
  EXPECT_FALSE(p[3].contains("optout"));
  EXPECT_FALSE(p[3].contains("optout_error"));
  EXPECT_EQ(p[4]["url"], "http://h0.test/p10");
  EXPECT_EQ(p[4]["optout"], nlohmann::json({"robots.txt content-usage: train-ai=n"}));
  EXPECT_EQ(p[4]["optout_reserved"], true);
  RemoveTree(dir);
}

TEST_F(WaczTest, OlderSchemaIsAClearErrorAndNoFile) {
  const std::string old = dir_ + "/old";
  std::filesystem::create_directories(old);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((old + "/crawl.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
                         "INSERT INTO meta VALUES('schema_version','0');"
                         "CREATE TABLE pages(id INTEGER PRIMARY KEY, url TEXT, status TEXT);",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto stats = WriteWacz(old, dir_ + "/old.wacz", {});
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("older schema (schema_version 0)"), std::string::npos)
      << stats.status().message();
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/old.wacz"));
}

TEST_F(WaczTest, TruncatedWarcFailsWithoutOutput) {
  auto files = CrawlWarcFiles(crawl_);
  ASSERT_TRUE(files.ok());
  std::filesystem::resize_file(files->back(), std::filesystem::file_size(files->back()) - 50);
  auto stats = WriteWacz(crawl_, dir_ + "/t.wacz", {});
  ASSERT_FALSE(stats.ok());
  EXPECT_NE(stats.status().message().find("truncated"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/t.wacz"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/t.wacz.parts.tmp"));
}

}  // namespace
}  // namespace topicrawl
