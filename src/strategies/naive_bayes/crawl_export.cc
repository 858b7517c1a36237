#include "strategies/naive_bayes/crawl_export.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <unordered_set>
#include <vector>

#include "fetch/charset.h"
#include "nlohmann/json.hpp"
#include "parse/html_parser.h"
#include "store/crawl_db_reader.h"
#include "strategies/naive_bayes/link_dataset.h"
#include "strategies/naive_bayes/link_features.h"
#include "strategies/naive_bayes/url_prefix_labeler.h"

namespace topicrawl {
namespace {

Status ExportLinks(CrawlDbReader* db, const UrlPrefixLabeler& labeler,
                   const LinkFeatureExtractor& features, const std::string& out_dir,
                   const ExportOptions& options, ExportSummary* sum) {
  std::vector<LinkExample> rows;
  std::unordered_set<std::string> seen;
  // Stored order: store schema 2's links view has each link's position on
  // its page (ord); schema 1 kept that order in rowid.
  const bool has_ord = db->HasColumn("links", "ord");
  Status s = db->Query(
      std::string("SELECT p.url, l.to_url, l.anchor, l.context FROM links l "
                  "JOIN pages p ON p.id = l.from_id ORDER BY ") +
          (has_ord ? "l.from_id, l.ord" : "l.rowid"),
      {}, [&](const DbRow& row) {
        ++sum->links_read;
        LinkExample r;
        r.from_url = row.Text(0);
        r.to_url = row.Text(1);
        r.anchor = row.Text(2);
        r.context = row.Text(3);
        if (options.dedup &&
            !seen.insert(r.to_url + '\x1f' + r.anchor + '\x1f' + r.context).second) {
          ++sum->duplicates;
          return true;
        }
        r.label = static_cast<int>(labeler.Label(r.to_url));
        r.tokens = features.Tokenize(r.anchor, r.context);
        rows.push_back(std::move(r));
        return true;
      });
  if (!s.ok()) return s;
  std::vector<int> labels;
  for (const auto& r : rows) labels.push_back(r.label);
  std::vector<Split> split = StratifiedSplit(labels, options.train_fraction, options.seed);
  std::vector<LinkExample> train, test;
  for (size_t i = 0; i < rows.size(); ++i) {
    LinkExample& r = rows[i];
    r.split = split[i];
    if (r.label == 1) ++sum->links_positive;
    if (r.label == 0) ++sum->links_negative;
    if (r.label < 0) ++sum->links_unlabelled;
    if (r.split == Split::kTrain) {
      ++(r.label == 1 ? sum->train_positive : sum->train_negative);
      train.push_back(r);
    } else if (r.split == Split::kTest) {
      ++(r.label == 1 ? sum->test_positive : sum->test_negative);
      test.push_back(r);
    }
  }
  s = WriteLinkTsv(out_dir + "/links.tsv", rows);
  if (s.ok()) s = WriteLinkTsv(out_dir + "/train.tsv", train);
  if (s.ok()) s = WriteLinkTsv(out_dir + "/test.tsv", test);
  return s;
}

// The decoded HTML body of the response record at `offset`, or an error.
StatusOr<std::string> ReadPageBody(const std::string& crawl_dir, const std::string& warc_file,
                                   int64_t offset, const std::string& content_type) {
  auto body = ReadStoredResponseBody(crawl_dir, warc_file, offset);
  if (!body.ok()) return body.status();
  return DecodeToUtf8(*body, content_type).utf8;
}

Status ForEachPageIn(CrawlDbReader* db, const std::string& crawl_dir,
                     const std::function<void(const StoredPage&)>& visit,
                     int64_t* unreadable) {
  struct Row {
    int64_t id;
    std::string url, content_type, warc_file;
    int64_t offset;
  };
  std::vector<Row> rows;
  Status s = db->Query(
      "SELECT id, coalesce(nullif(final_url, ''), url), content_type, warc_file, "
      "warc_offset FROM pages WHERE status = 'ok' ORDER BY id",
      {}, [&](const DbRow& row) {
        rows.push_back({row.Int(0), row.Text(1), row.Text(2), row.Text(3), row.Int(4)});
        return true;
      });
  if (!s.ok()) return s;
  for (const auto& r : rows) {
    auto html = ReadPageBody(crawl_dir, r.warc_file, r.offset, r.content_type);
    if (!html.ok()) {
      if (unreadable) ++*unreadable;
      continue;
    }
    ParsedPage parsed = ParseHtml(*html, r.url);
    StoredPage page;
    page.id = r.id;
    page.url = r.url;
    page.title = parsed.title;
    page.text = parsed.text;
    page.parsed = &parsed;
    visit(page);
  }
  return Status::Ok();
}

Status ExportPages(CrawlDbReader* db, const std::string& crawl_dir,
                   const UrlPrefixLabeler& labeler, const LinkFeatureExtractor& features,
                   const std::string& out_dir, const ExportOptions& options,
                   ExportSummary* sum) {
  std::vector<PageExample> pages;
  Status s = ForEachPageIn(
      db, crawl_dir,
      [&](const StoredPage& sp) {
        PageExample p;
        p.url = sp.url;
        p.title = sp.title;
        p.label = static_cast<int>(labeler.Label(sp.url));
        p.tokens = features.PageWords(sp.title + "\n" + sp.text);
        if (p.tokens.size() > options.max_page_tokens) p.tokens.resize(options.max_page_tokens);
        ++(p.label == 1 ? sum->pages_positive
                        : p.label == 0 ? sum->pages_negative : sum->pages_unlabelled);
        pages.push_back(std::move(p));
      },
      &sum->pages_unreadable);
  if (!s.ok()) return s;
  std::vector<int> labels;
  for (const auto& p : pages) labels.push_back(p.label);
  // A different stream than the links' split.
  auto split = StratifiedSplit(labels, options.train_fraction, options.seed ^ 0x70616765ull);
  for (size_t i = 0; i < pages.size(); ++i) pages[i].split = split[i];
  return WritePageTsv(out_dir + "/pages.tsv", pages);
}

}  // namespace

Status ForEachStoredPage(const std::string& crawl_dir,
                         const std::function<void(const StoredPage&)>& visit,
                         int64_t* unreadable) {
  auto db = CrawlDbReader::Open(crawl_dir);
  if (!db.ok()) return db.status();
  return ForEachPageIn(db->get(), crawl_dir, visit, unreadable);
}

StatusOr<ExportSummary> ExportLabelledData(const std::string& crawl_dir, const Topic& topic,
                                           const std::string& out_dir,
                                           const ExportOptions& options) {
  auto labeler = UrlPrefixLabeler::Create(topic.on_topic_prefixes, topic.off_topic_prefixes);
  if (!labeler.ok()) return Status::Error(topic.source + ": " + labeler.status().message());
  auto features = LinkFeatureExtractor::Create(FeatureDictionary(topic));
  if (!features.ok()) return features.status();
  auto db = CrawlDbReader::Open(crawl_dir);
  if (!db.ok()) return db.status();
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return Status::Error("cannot create " + out_dir + ": " + ec.message());

  ExportSummary sum;
  Status s = ExportLinks(db->get(), *labeler, **features, out_dir, options, &sum);
  if (!s.ok()) return s;
  if (options.pages) {
    s = ExportPages(db->get(), crawl_dir, *labeler, **features, out_dir, options, &sum);
    if (!s.ok()) return s;
  }
  nlohmann::json j;
  j["format"] = "topicrawl-link-dataset";
  j["version"] = 1;
  j["crawl_dir"] = crawl_dir;
  j["topic"] = topic.name;
  j["topic_file"] = topic.source;
  j["dictionary"] = FeatureDictionary(topic);
  j["on_topic_prefixes"] = topic.on_topic_prefixes;
  j["off_topic_prefixes"] = topic.off_topic_prefixes;
  j["seed"] = options.seed;
  j["train_fraction"] = options.train_fraction;
  j["dedup"] = options.dedup;
  j["tokenizer"] = std::string((*features)->tokenizer().segmenter_name());
  j["counts"] = {{"links_read", sum.links_read},
                 {"duplicates", sum.duplicates},
                 {"positive", sum.links_positive},
                 {"negative", sum.links_negative},
                 {"unlabelled", sum.links_unlabelled},
                 {"train_positive", sum.train_positive},
                 {"train_negative", sum.train_negative},
                 {"test_positive", sum.test_positive},
                 {"test_negative", sum.test_negative},
                 {"pages_positive", sum.pages_positive},
                 {"pages_negative", sum.pages_negative},
                 {"pages_unlabelled", sum.pages_unlabelled},
                 {"pages_unreadable", sum.pages_unreadable}};
  std::ofstream out(out_dir + "/dataset.json", std::ios::trunc);
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!out) return Status::Error("cannot write " + out_dir + "/dataset.json");
  return sum;
}

}  // namespace topicrawl
