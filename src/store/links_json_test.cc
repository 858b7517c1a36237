#include "store/links_json.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace topicrawl {
namespace {

std::string Json(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

// Reads `json` back with SQLite's own JSON functions (the way the `links`
// view does): one row per link, the five fields as text (score as SQLite
// prints a REAL, null as "NULL").
std::vector<std::vector<std::string>> ReadBack(const std::string& json) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db,
                               "SELECT j.value->>0, j.value->>1, j.value->>2, j.value->>3, "
                               "j.value->>4 FROM json_each(?1) j ORDER BY j.key",
                               -1, &st, nullptr),
            SQLITE_OK);
  sqlite3_bind_text(st, 1, json.data(), static_cast<int>(json.size()), SQLITE_TRANSIENT);
  std::vector<std::vector<std::string>> rows;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < 5; ++c) {
      if (c == 3 && sqlite3_column_type(st, c) != SQLITE_NULL) {
        char buf[40];  // the REAL itself: column text would round it to 15 digits
        std::snprintf(buf, sizeof(buf), "%.17g", sqlite3_column_double(st, c));
        row.emplace_back(buf);
        continue;
      }
      const unsigned char* t = sqlite3_column_text(st, c);
      row.emplace_back(t ? std::string(reinterpret_cast<const char*>(t),
                                       static_cast<size_t>(sqlite3_column_bytes(st, c)))
                         : "NULL");
    }
    rows.push_back(std::move(row));
  }
  EXPECT_EQ(rc, SQLITE_DONE) << sqlite3_errmsg(db) << " in " << json;
  sqlite3_finalize(st);
  sqlite3_close(db);
  return rows;
}

TEST(LinksJsonTest, EscapesPerRfc8259Section7) {
  EXPECT_EQ(Json("plain"), "\"plain\"");
  EXPECT_EQ(Json("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(Json("l1\nl2\r\t"), "\"l1\\nl2\\r\\t\"");
  EXPECT_EQ(Json(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(Json(std::string(1, '\0')), "\"\\u0000\"");
  EXPECT_EQ(Json("网络 café"), "\"网络 café\"");  // UTF-8 passes through
  EXPECT_EQ(Json("/ stays"), "\"/ stays\"");
}

TEST(LinksJsonTest, InvalidUtf8BecomesReplacementCharacter) {
  EXPECT_EQ(Json("a\xFF" "b"), "\"a\xEF\xBF\xBD" "b\"");
  EXPECT_EQ(Json("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");      // overlong '/'
  EXPECT_EQ(Json("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
  EXPECT_EQ(Json("\xE6\x9A"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");      // cut sequence
  EXPECT_EQ(Json("\xF0\x9F\x98\x80"), "\"\xF0\x9F\x98\x80\"");      // U+1F600 is fine
}

TEST(LinksJsonTest, SqliteReadsBackEveryField) {
  std::vector<LinkRecord> links = {
      {"http://a.example/x?q=1", "the \"anchor\"", "ctx \\ with\nnewline", 0.125,
       "{\"s\":0.125,\"parts\":{\"anchor\":0.5}}"},
      {"https://b.example/网络", "", "", 0.0, ""},
      {"http://c.example/", "tab\there", std::string("nul\0x", 5), 1e-300, "{}"},
  };
  std::string json;
  AppendLinksJson(links, &json);
  auto rows = ReadBack(json);
  ASSERT_EQ(rows.size(), links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    EXPECT_EQ(rows[i][0], links[i].to_url);
    EXPECT_EQ(rows[i][1], links[i].anchor);
    EXPECT_EQ(rows[i][4], links[i].explanation);
    EXPECT_EQ(std::stod(rows[i][3]), links[i].score) << rows[i][3];
  }
  EXPECT_EQ(rows[0][2], links[0].context);
  EXPECT_EQ(rows[2][2].substr(0, 3), "nul");  // SQLite text stops at NUL
}

TEST(LinksJsonTest, EmptyListAndNonFiniteScores) {
  std::string json;
  AppendLinksJson({}, &json);
  EXPECT_EQ(json, "[]");
  EXPECT_TRUE(ReadBack(json).empty());
  std::vector<LinkRecord> links = {
      {"http://a/", "", "", std::numeric_limits<double>::quiet_NaN(), ""},
      {"http://b/", "", "", std::numeric_limits<double>::infinity(), ""}};
  json.clear();
  AppendLinksJson(links, &json);
  auto rows = ReadBack(json);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][3], "NULL");
  EXPECT_EQ(rows[1][3], "NULL");
}

// Independent check (RFC 3629 §4 table): is `s` valid UTF-8?
bool ValidUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

// Random bytes of every kind: SQLite must accept every output as JSON and
// give back the input where it was valid UTF-8 without NUL.
TEST(LinksJsonTest, RandomStringsAlwaysGiveValidJson) {
  std::mt19937 rng(7);
  const std::vector<std::string> parts = {"a", "\"", "\\", "\n", "\x01", "\xFF", "\xC3\xA9",
                                          "\xE7\xBD\x91", "\xF0\x9F\x98\x80", "\xE7\xBD",
                                          "\xED\xA0\x80", " ", "/"};
  for (int round = 0; round < 300; ++round) {
    std::vector<LinkRecord> links(1 + rng() % 4);
    for (LinkRecord& l : links) {
      for (int k = static_cast<int>(rng() % 10); k > 0; --k) l.anchor += parts[rng() % parts.size()];
      l.to_url = "http://x/" + std::to_string(round);
      l.score = std::ldexp(static_cast<double>(rng()), -static_cast<int>(rng() % 60));
    }
    std::string json;
    AppendLinksJson(links, &json);
    auto rows = ReadBack(json);
    ASSERT_EQ(rows.size(), links.size()) << json;
    for (size_t i = 0; i < links.size(); ++i) {
      EXPECT_EQ(std::stod(rows[i][3]), links[i].score);
      if (ValidUtf8(links[i].anchor)) {
        EXPECT_EQ(rows[i][1], links[i].anchor);
      }
    }
  }
}

}  // namespace
}  // namespace topicrawl

namespace topicrawl {
namespace {

std::string Compact(std::string_view json) {
  std::string out;
  AppendCompactJsonNumbers(json, &out);
  return out;
}

TEST(CompactJsonNumbersTest, ShortensLongRealsOnly) {
  EXPECT_EQ(Compact(R"({"alpha":0.3,"anchor_terms":[["encryption",2,0.6666666666666666,)"
                    R"(0.6468723357443247,0.8]],"s":0.706298921202895,"n":123456789})"),
            R"({"alpha":0.3,"anchor_terms":[["encryption",2,0.666667,0.646872,0.8]],)"
            R"("s":0.706299,"n":123456789})");
  // Strings (escapes included) keep their digits; tiny and huge reals keep
  // their exponent; a rounding up to an integer stays a REAL.
  EXPECT_EQ(Compact(R"(["0.6666666666666666 \"1.23456789\"",-1.2345678901e-12,9.99999999])"),
            R"(["0.6666666666666666 \"1.23456789\"",-1.23457e-12,10.0])");
  EXPECT_EQ(Compact("[0.000123456789]"), "[0.000123457]");
}

TEST(CompactJsonNumbersTest, NonJsonAndShortTextPassThrough) {
  EXPECT_EQ(Compact("score 0.6666666666666666"), "score 0.6666666666666666");
  EXPECT_EQ(Compact(""), "");
  EXPECT_EQ(Compact(R"({"s":0.5,"t":[1,2,3]})"), R"({"s":0.5,"t":[1,2,3]})");
  EXPECT_EQ(Compact("[\"unterminated"), "[\"unterminated");
}

TEST(CompactJsonNumbersTest, SqliteReadsTheCompactFormAsTheSameValuesTo6Digits) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  const std::string json = Compact(R"({"a":[0.12345678901,2,3.3333333333e5],"b":"x"})");
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT json_valid(?1), ?1->>'$.a[0]', ?1->>'$.a[2]', ?1->>'$.b'",
                               -1, &st, nullptr),
            SQLITE_OK);
  sqlite3_bind_text(st, 1, json.c_str(), -1, SQLITE_TRANSIENT);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 1);
  EXPECT_NEAR(sqlite3_column_double(st, 1), 0.12345678901, 1e-6);
  EXPECT_NEAR(sqlite3_column_double(st, 2), 3.3333333333e5, 1);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 3)), "x");
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST(CompactLinksJsonTest, SameOriginUrlsBecomePathsAndEmptyTailsAreLeftOut) {
  std::vector<LinkRecord> links{
      {"http://a.test/b/c.html?q=1", "anchor", "", 0.6666666666666666, ""},
      {"https://a.test/x", "", "ctx", 3.0, ""},          // another scheme: kept whole
      {"http://a.test.evil/x", "", "", -1.5, "{\"s\":0.123456789}"},
      {"http://a.test/", "home", "", 0.0, ""},
      {"http://a.test/p/r.html", "sibling", "", 0.5, ""},
      {"http://a.test/p/", "dir", "", 0.5, ""}};
  std::string out;
  AppendCompactLinksJson(links, "http://a.test/p/q.html", &out);
  EXPECT_EQ(out,
            R"([["/b/c.html?q=1","anchor",0.666667],["https://a.test/x","",3.0,"ctx"],)"
            R"(["http://a.test.evil/x","",-1.5,"","{\"s\":0.123457}"],["/","home",0.0],)"
            R"([".r.html","sibling",0.5],[".","dir",0.5]])");
  EXPECT_EQ(LinkOriginLength("http://a.test/p"), 13u);
  EXPECT_EQ(LinkOriginLength("https://a.test/p"), 14u);
  EXPECT_EQ(LinkOriginLength("http://a/"), 8u);
  EXPECT_EQ(LinkOriginLength("http://a.test"), 0u);  // no path: nothing is cut
  EXPECT_EQ(LinkOriginLength("ftp://a.test/"), 0u);
  out.clear();
  AppendCompactLinksJson(links, "http://a.test", &out);
  EXPECT_EQ(out.find("[\"/"), std::string::npos) << out;
  EXPECT_EQ(out.find("[\"."), std::string::npos) << out;
}

// Schema 5's frontier URLs: cut from the parent page's URL and joined back,
// in C++ and by the same SQL as the views.
TEST(LinksJsonTest, CompactUrlRoundTripsAndMatchesTheViewSql) {
  const std::string page = "http://a.test/dir/page.html";
  EXPECT_EQ(CompactUrl("http://a.test/dir/x.html", page), ".x.html");
  EXPECT_EQ(CompactUrl("http://a.test/other/y.html?q=1", page), "/other/y.html?q=1");
  EXPECT_EQ(CompactUrl("https://a.test/dir/x.html", page), "https://a.test/dir/x.html");
  EXPECT_EQ(CompactUrl("http://b.test/dir/x.html", page), "http://b.test/dir/x.html");
  EXPECT_EQ(CompactUrl("http://a.test/", "http://a.test"), "http://a.test/");  // no path
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  for (const std::string& parent :
       {page, std::string("https://a.test/"), std::string("http://a.test:8080/a/b/c")}) {
    for (const std::string& url :
         {std::string("http://a.test/dir/x.html"), std::string("https://a.test/z"),
          std::string("http://a.test:8080/a/b/d?x=/y"), std::string("http://a.test:8080/q"),
          std::string("http://b.test/")}) {
      const std::string cut = CompactUrl(url, parent);
      EXPECT_EQ(ExpandCompactUrl(cut, parent), url) << parent << " " << url;
      sqlite3_stmt* st = nullptr;
      ASSERT_EQ(sqlite3_prepare_v2(db,
                                   "SELECT CASE substr(?1, 1, 1) "
                                   "WHEN '/' THEN substr(?2, 1, instr(substr(?2, 9), '/') + 7) || ?1 "
                                   "WHEN '.' THEN rtrim(?2, replace(?2, '/', '')) || substr(?1, 2) "
                                   "ELSE ?1 END",
                                   -1, &st, nullptr),
                SQLITE_OK);
      sqlite3_bind_text(st, 1, cut.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(st, 2, parent.c_str(), -1, SQLITE_TRANSIENT);
      ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
      EXPECT_EQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), url) << cut;
      sqlite3_finalize(st);
    }
  }
  sqlite3_close(db);
}

}  // namespace
}  // namespace topicrawl
