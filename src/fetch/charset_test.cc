#include "fetch/charset.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace topicrawl {
namespace {

// Fixtures were produced from the *.src.html UTF-8 sources with iconv; see
// src/parse/testdata/charset/make_fixtures.sh.
std::string ReadFixture(const std::string& name) {
  std::string path =
      std::string(TOPICRAWL_SOURCE_DIR) + "/src/parse/testdata/charset/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct FixtureCase {
  const char* fixture;
  const char* source;  // UTF-8 original
  const char* content_type;
  const char* charset;
  const char* why;
};

class CharsetFixtureTest : public ::testing::TestWithParam<FixtureCase> {};

TEST_P(CharsetFixtureTest, DecodesToTheUtf8Original) {
  const FixtureCase& c = GetParam();
  std::string bytes = ReadFixture(c.fixture);
  std::string expected = ReadFixture(c.source);
  DecodedText d = DecodeToUtf8(bytes, c.content_type);
  EXPECT_EQ(d.charset, c.charset);
  EXPECT_EQ(d.source, c.why);
  EXPECT_EQ(d.replaced, 0u);
  EXPECT_EQ(d.utf8, expected);
}

INSTANTIATE_TEST_SUITE_P(
    RealBytes, CharsetFixtureTest,
    ::testing::Values(
        // <meta charset=gbk>: decoded with the gb18030 decoder (WHATWG §10.1).
        FixtureCase{"zh_gbk_meta.html", "zh_gbk_meta.src.html", "text/html",
                    "GBK", "meta"},
        // No declaration anywhere: uchardet recognises GBK bytes as GB18030.
        FixtureCase{"zh_gbk_nodecl.html", "zh_gbk_nodecl.src.html", "",
                    "gb18030", "detector"},
        // Four-byte GB18030 sequences (U+20BB7, U+2123C, U+3400) and the euro.
        FixtureCase{"zh_gb18030_http.html", "zh_gb18030_http.src.html",
                    "text/html; charset=GB18030", "gb18030", "http"},
        // <meta http-equiv=Content-Type content="...charset=big5">.
        FixtureCase{"zh_big5_meta.html", "zh_big5_meta.src.html", "text/html",
                    "Big5", "meta"},
        FixtureCase{"zh_big5_nodecl.html", "zh_big5_nodecl.src.html",
                    "text/html", "Big5", "detector"},
        FixtureCase{"ja_sjis_pragma.html", "ja_sjis_pragma.src.html", "",
                    "Shift_JIS", "meta"},
        // iso-8859-1 is windows-1252 (WHATWG §4.2): 0x80 is the euro sign,
        // 0x93/0x94 are curly quotes, 0x97 the em dash.
        FixtureCase{"fr_cp1252_latin1.html", "fr_cp1252_latin1.src.html",
                    "text/html; charset=ISO-8859-1", "windows-1252", "http"},
        // HTML §13.2.3.1: a BOM wins over a contradicting <meta charset=gbk>.
        FixtureCase{"zh_utf8_bom.html", "zh_utf8_bom.src.html",
                    "text/html; charset=gbk", "UTF-8", "bom"},
        FixtureCase{"zh_utf16le_bom.html", "zh_utf16.src.html", "", "UTF-16LE",
                    "bom"},
        FixtureCase{"zh_utf16be_bom.html", "zh_utf16.src.html", "", "UTF-16BE",
                    "bom"},
        // Mislabelled: GBK bytes served as utf-8 -> detector wins.
        FixtureCase{"zh_gbk_as_utf8.html", "zh_gbk_as_utf8.src.html",
                    "text/html; charset=utf-8", "gb18030", "http-override"},
        // Mislabelled: UTF-8 bytes with <meta charset=gb2312> -> UTF-8 wins.
        FixtureCase{"zh_utf8_as_gb2312.html", "zh_utf8_as_gb2312.src.html", "",
                    "UTF-8", "meta-override"},
        // Mislabelled: windows-1252 prose served as utf-8.
        FixtureCase{"fr_cp1252_as_utf8.html", "fr_cp1252_as_utf8.src.html",
                    "text/html; charset=utf-8", "windows-1252",
                    "http-override"}));

TEST(EncodingForLabelTest, MapsWhatwgLabels) {  // WHATWG Encoding §4.2
  EXPECT_EQ(EncodingForLabel("latin1"), "windows-1252");
  EXPECT_EQ(EncodingForLabel("US-ASCII"), "windows-1252");
  EXPECT_EQ(EncodingForLabel(" GB2312\t"), "GBK");
  EXPECT_EQ(EncodingForLabel("x-gbk"), "GBK");
  EXPECT_EQ(EncodingForLabel("GB18030"), "gb18030");
  EXPECT_EQ(EncodingForLabel("big5-hkscs"), "Big5");
  EXPECT_EQ(EncodingForLabel("x-sjis"), "Shift_JIS");
  EXPECT_EQ(EncodingForLabel("ks_c_5601-1987"), "EUC-KR");
  EXPECT_EQ(EncodingForLabel("utf8"), "UTF-8");
  EXPECT_EQ(EncodingForLabel("utf-16"), "UTF-16LE");
  EXPECT_EQ(EncodingForLabel("iso-8859-9"), "windows-1254");
  EXPECT_EQ(EncodingForLabel("iso-2022-kr"), "replacement");
  EXPECT_EQ(EncodingForLabel("utf-7"), "");
  EXPECT_EQ(EncodingForLabel(""), "");
}

TEST(CharsetParameterTest, ParsesContentTypeParameters) {  // RFC 9110 §8.3
  EXPECT_EQ(CharsetParameter("text/html; charset=GBK"), "GBK");
  EXPECT_EQ(CharsetParameter("text/html;charset=\"utf-8\""), "utf-8");
  EXPECT_EQ(CharsetParameter("text/html; CHARSET = big5 ; q=1"), "big5");
  EXPECT_EQ(CharsetParameter("text/html; x=\"a;charset=bad\"; charset=koi8-r"),
            "koi8-r");
  EXPECT_EQ(CharsetParameter("text/html"), "");
  EXPECT_EQ(CharsetParameter(""), "");
  EXPECT_EQ(CharsetParameter("text/html; charset="), "");
}

// HTML §13.2.3.2 "prescan a byte stream to determine its encoding".
TEST(PrescanMetaCharsetTest, FindsMetaCharset) {
  EXPECT_EQ(PrescanMetaCharset("<html><head><meta charset=gbk>"), "GBK");
  EXPECT_EQ(PrescanMetaCharset("<META CHARSET='Big5'/>"), "Big5");
  EXPECT_EQ(PrescanMetaCharset("<meta http-equiv=\"Content-Type\" "
                               "content=\"text/html; charset=shift_jis\">"),
            "Shift_JIS");
  EXPECT_EQ(PrescanMetaCharset("<meta content='text/html;charset=\"koi8-r\"' "
                               "http-equiv=content-type>"),
            "KOI8-R");
}

TEST(PrescanMetaCharsetTest, IgnoresWhatTheStandardIgnores) {
  // content= without http-equiv=content-type needs the pragma.
  EXPECT_EQ(PrescanMetaCharset("<meta content=\"text/html; charset=gbk\">"), "");
  // Inside a comment.
  EXPECT_EQ(PrescanMetaCharset("<!-- <meta charset=gbk> --><p>"), "");
  // Inside another tag's attribute value.
  EXPECT_EQ(PrescanMetaCharset("<div title=\"<meta charset=gbk>\"></div>"), "");
  // Beyond the first 1024 bytes.
  EXPECT_EQ(PrescanMetaCharset(std::string(1100, ' ') + "<meta charset=gbk>"),
            "");
  // Unknown labels are skipped, the next meta is used.
  EXPECT_EQ(PrescanMetaCharset("<meta charset=foo><meta charset=euc-jp>"),
            "EUC-JP");
  // UTF-16 in a meta means UTF-8; x-user-defined means windows-1252.
  EXPECT_EQ(PrescanMetaCharset("<meta charset=utf-16le>"), "UTF-8");
  EXPECT_EQ(PrescanMetaCharset("<meta charset=x-user-defined>"), "windows-1252");
  // Truncated tag: no answer.
  EXPECT_EQ(PrescanMetaCharset("<meta charset=\"gbk"), "");
}

TEST(DecodeToUtf8Test, CountsEveryReplacement) {
  // Valid UTF-8 with one stray byte and one truncated sequence at the end:
  // the declaration stays (1 bad per 12 good is not "clearly wrong").
  std::string body = "暴雨台风气象灾害预防安全网络\xFF文本\xE6\x9A";
  DecodedText d = DecodeToUtf8(body, "text/html; charset=utf-8");
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_EQ(d.source, "http");
  EXPECT_EQ(d.replaced, 2u);
  EXPECT_EQ(d.utf8, "暴雨台风气象灾害预防安全网络\uFFFD文本\uFFFD");
}

TEST(DecodeToUtf8Test, LegacyDecoderSubstitutesInvalidBytes) {
  // 0xFF is never a valid GBK/gb18030 lead byte; 0x81 0x20 is a bad pair.
  std::string body = "a\xFF" "b\x81 c";
  std::string out;
  size_t replaced = 0;
  ASSERT_TRUE(ConvertToUtf8(body, "GBK", &out, &replaced));
  EXPECT_EQ(replaced, 2u);
  EXPECT_EQ(out, "a\uFFFDb\uFFFD c");
}

TEST(DecodeToUtf8Test, Windows1252UndefinedBytesAreC1Controls) {
  std::string out;
  size_t replaced = 9;
  ASSERT_TRUE(ConvertToUtf8("\x80\x81\x9D", "windows-1252", &out, &replaced));
  EXPECT_EQ(replaced, 0u);
  EXPECT_EQ(out, "\u20AC\u0081\u009D");
}

TEST(DecodeToUtf8Test, ReplacementEncodingYieldsOneReplacementCharacter) {
  DecodedText d = DecodeToUtf8("\x1b$)C\x0e!!", "text/html; charset=iso-2022-kr");
  EXPECT_EQ(d.charset, "replacement");
  EXPECT_EQ(d.utf8, "\uFFFD");
  EXPECT_EQ(d.replaced, 1u);
}

TEST(DecodeToUtf8Test, AsciiAndEmptyDefaultToUtf8) {
  DecodedText d = DecodeToUtf8("<p>hello</p>", "");
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_EQ(d.source, "default");
  EXPECT_EQ(d.utf8, "<p>hello</p>");
  DecodedText e = DecodeToUtf8("", "text/html");
  EXPECT_EQ(e.utf8, "");
  EXPECT_EQ(e.replaced, 0u);
}

TEST(DecodeToUtf8Test, UnknownHttpLabelFallsThroughToMeta) {
  DecodedText d = DecodeToUtf8(ReadFixture("zh_gbk_meta.html"),
                               "text/html; charset=no-such-charset");
  EXPECT_EQ(d.charset, "GBK");
  EXPECT_EQ(d.source, "meta");
}

TEST(DecodeToUtf8Test, HttpWinsOverMeta) {
  // Big5 bytes with a (wrong) <meta charset=big5> replaced by a declaration
  // that also decodes cleanly is out of reach; here HTTP names the right one.
  std::string bytes = ReadFixture("zh_gbk_meta.html");  // says gbk in <meta>
  DecodedText d = DecodeToUtf8(bytes, "text/html; charset=gb18030");
  EXPECT_EQ(d.charset, "gb18030");
  EXPECT_EQ(d.source, "http");
  EXPECT_EQ(d.utf8, ReadFixture("zh_gbk_meta.src.html"));
}

TEST(DecodeToUtf8Test, ThreadSafeUnderConcurrentCalls) {
  const std::string gbk = ReadFixture("zh_gbk_nodecl.html");
  const std::string big5 = ReadFixture("zh_big5_meta.html");
  const std::string gbk_src = ReadFixture("zh_gbk_nodecl.src.html");
  const std::string big5_src = ReadFixture("zh_big5_meta.src.html");
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        if (DecodeToUtf8(gbk, "").utf8 != gbk_src) ++failures[t];
        if (DecodeToUtf8(big5, "").utf8 != big5_src) ++failures[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

}  // namespace
}  // namespace topicrawl
