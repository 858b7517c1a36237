// AnnounceParser: expat callbacks -> AnnouncedEntry, with the limits and
// the location rule of the sitemaps protocol (see the header).
#include "sitemap/announce_parser.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <optional>

// Debian's libexpat is built with DTD support; the header declares the
// billion-laughs controls only when the client says so.
#ifndef XML_DTD
#define XML_DTD
#endif
#include <expat.h>

#include "sitemap/announce_date.h"
#include "url/url.h"
#include "url/plain_url.h"

namespace topicrawl {
namespace {

constexpr std::string_view kSitemapNs = "http://www.sitemaps.org/schemas/sitemap/0.9";
constexpr std::string_view kGoogleNs084 = "http://www.google.com/schemas/sitemap/0.84";
constexpr std::string_view kGoogleNs09 = "http://www.google.com/schemas/sitemap/0.9";
constexpr std::string_view kNewsNs = "http://www.google.com/schemas/sitemap-news/0.9";
constexpr std::string_view kAtomNs = "http://www.w3.org/2005/Atom";
constexpr int kPathDepth = 8;  // every element read sits at depth <= 3

enum class Tag : uint8_t {
  kOther, kRoot, kEntry, kChannel, kNews, kLoc, kLastmod, kChangefreq, kPriority,
  kPublished, kLink, kGuid, kTitle,
};

struct Name {
  std::string_view ns, local;
};

Name SplitName(const XML_Char* name) {
  std::string_view s(name);
  size_t sp = s.rfind(' ');
  if (sp == std::string_view::npos) return {{}, s};
  return {s.substr(0, sp), s.substr(sp + 1)};
}

bool IsSitemapNs(std::string_view ns) {
  return ns == kSitemapNs || ns == kGoogleNs084 || ns == kGoogleNs09 || ns.empty();
}

// XML white space (and the other ASCII spaces), without the locale.
bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

const char* Attr(const XML_Char** atts, std::string_view name) {
  for (int i = 0; atts[i] != nullptr; i += 2) {
    if (name == atts[i]) return atts[i + 1];
  }
  return nullptr;
}

// "scheme://host[:port]/" of a canonical URL ("" when it has none).
std::string_view Origin(std::string_view url) {
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return {};
  size_t slash = url.find('/', scheme_end + 3);
  return slash == std::string_view::npos ? url : url.substr(0, slash + 1);
}

// "scheme://host[:port]/dir/" of a canonical URL: everything up to the last
// '/' of its path (query excluded).
std::string_view Directory(std::string_view url) {
  std::string_view origin = Origin(url);
  if (origin.empty()) return {};
  size_t end = url.find_first_of("?#", origin.size());
  std::string_view path = url.substr(0, end == std::string_view::npos ? url.size() : end);
  return path.substr(0, path.rfind('/') + 1);
}

// A feed entry's or news article's title as plain text: markup of an
// escaped-HTML title (RSS titles and Atom type="html" carry it) dropped,
// white space folded, at most kMaxTitleBytes (cut at a UTF-8 boundary).
constexpr size_t kMaxTitleBytes = 512;
std::string EntryTitle(std::string_view raw) {
  std::string out;
  bool in_tag = false, space = false;
  for (char c : raw) {
    if (c == '<') in_tag = true;
    if (in_tag) {
      if (c == '>') in_tag = false, space = true;
      continue;
    }
    if (IsSpace(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > kMaxTitleBytes) {
    size_t cut = kMaxTitleBytes;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
  }
  return out;
}

ChangeFreq ParseChangeFreq(std::string_view s) {
  s = Trim(s);
  char lower[8];
  if (s.size() > sizeof lower) return ChangeFreq::kNone;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view v(lower, s.size());
  static const std::pair<const char*, ChangeFreq> kNames[] = {
      {"always", ChangeFreq::kAlways},   {"hourly", ChangeFreq::kHourly},
      {"daily", ChangeFreq::kDaily},     {"weekly", ChangeFreq::kWeekly},
      {"monthly", ChangeFreq::kMonthly}, {"yearly", ChangeFreq::kYearly},
      {"never", ChangeFreq::kNever}};
  for (const auto& [name, f] : kNames) {
    if (v == name) return f;
  }
  return ChangeFreq::kNone;
}

}  // namespace

const char* AnnounceKindName(AnnounceKind kind) {
  switch (kind) {
    case AnnounceKind::kUrlset: return "urlset";
    case AnnounceKind::kSitemapIndex: return "sitemapindex";
    case AnnounceKind::kRss: return "rss";
    case AnnounceKind::kAtom: return "atom";
    case AnnounceKind::kUnknown: break;
  }
  return "unknown";
}

const char* ChangeFreqName(ChangeFreq f) {
  static const char* kNames[] = {"",        "always", "hourly", "daily",
                                 "weekly",  "monthly", "yearly", "never"};
  return kNames[static_cast<int>(f)];
}

int64_t AnnounceSummary::ProblemCount(std::string_view reason) const {
  for (const AnnounceProblem& p : problems) {
    if (p.reason == reason) return p.count;
  }
  return 0;
}

bool SitemapMayList(std::string_view sitemap_url, std::string_view url,
                    const AnnounceScope& scope) {
  if (scope.unrestricted) return true;
  std::string_view dir = Directory(sitemap_url);
  if (!dir.empty() && url.substr(0, dir.size()) == dir) return true;
  for (const std::string& root : scope.extra_roots) {
    if (url.substr(0, root.size()) == root) return true;
  }
  return false;
}

class AnnounceParser::Impl {
 public:
  Impl(std::string url, AnnounceLimits limits, AnnounceScope scope, EntryFn fn)
      : url_(std::move(url)), limits_(limits), scope_(std::move(scope)), fn_(std::move(fn)) {
    directory_ = std::string(Directory(url_));
    parser_ = XML_ParserCreateNS(nullptr, ' ');
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &Impl::OnStart, &Impl::OnEnd);
    XML_SetCharacterDataHandler(parser_, &Impl::OnText);
    XML_SetEntityDeclHandler(parser_, &Impl::OnEntityDecl);
    XML_SetParamEntityParsing(parser_, XML_PARAM_ENTITY_PARSING_NEVER);
    XML_SetBillionLaughsAttackProtectionMaximumAmplification(parser_, 50.0f);
    XML_SetBillionLaughsAttackProtectionActivationThreshold(parser_, 1u << 20);
  }
  ~Impl() {
    XML_ParserFree(parser_);
    if (inflating_) inflateEnd(&z_);
  }

  bool Feed(std::string_view bytes);
  const AnnounceSummary& Finish();
  AnnounceKind kind() const { return summary_.kind; }

 private:
  // Raw text of the entry being read.
  struct Raw {
    std::string loc, lastmod, changefreq, priority, published, title;
    bool has_lastmod = false, has_changefreq = false, has_priority = false;
    bool has_published = false, has_loc = false, has_title = false;
    void Clear() {  // keeps the strings' capacity: one entry after another
      loc.clear(), lastmod.clear(), changefreq.clear(), priority.clear(), published.clear();
      title.clear();
      has_lastmod = has_changefreq = has_priority = has_published = has_loc = false;
      has_title = false;
    }
  };

  static void XMLCALL OnStart(void* self, const XML_Char* name, const XML_Char** atts) {
    static_cast<Impl*>(self)->Start(SplitName(name), atts);
  }
  static void XMLCALL OnEnd(void* self, const XML_Char* /*name*/) {
    static_cast<Impl*>(self)->End();
  }
  static void XMLCALL OnText(void* self, const XML_Char* s, int len) {
    static_cast<Impl*>(self)->Text(std::string_view(s, static_cast<size_t>(len)));
  }
  static void XMLCALL OnEntityDecl(void* self, const XML_Char* name, int, const XML_Char*, int,
                                   const XML_Char*, const XML_Char*, const XML_Char*,
                                   const XML_Char*) {
    auto* impl = static_cast<Impl*>(self);
    impl->Stop("dtd_entity", std::string("entity declaration refused: ") + name);
  }

  void Start(Name n, const XML_Char** atts);
  void StartRoot(Name n);
  Tag ChildTag(Name n, Tag parent, int depth, const XML_Char** atts);
  Tag AtomChild(Name n, const XML_Char** atts);
  void End();
  void Text(std::string_view s);
  void Emit();
  bool EntryUrl();
  bool MayList(std::string_view url) const;
  void ReadDates(AnnouncedEntry* e);
  std::optional<int64_t> CheckDate(std::optional<int64_t> ms, const std::string& text);
  bool ParseXml(const char* data, size_t n);
  bool Inflate(std::string_view bytes);
  void Problem(std::string_view reason, std::string detail);
  void Stop(std::string_view reason, std::string detail);

  std::string url_;
  AnnounceLimits limits_;
  AnnounceScope scope_;
  EntryFn fn_;
  XML_Parser parser_;
  AnnounceSummary summary_;
  bool stopped_ = false, finished_ = false;
  // gzip sniffing and inflating.
  std::string head_;  // first bytes until the magic can be checked
  bool sniffed_ = false, inflating_ = false, inflate_done_ = false;
  z_stream z_{};
  // Element path.
  int64_t depth_ = 0;
  Tag path_[kPathDepth] = {};
  bool in_entry_ = false;
  Tag capture_ = Tag::kOther;
  std::string* target_ = nullptr;
  bool field_cut_ = false;
  Raw raw_;
  AnnouncedEntry entry_;      // the entry being emitted (buffers reused)
  std::string directory_;     // Directory(url_): the location rule's prefix
};

void AnnounceParser::Impl::Problem(std::string_view reason, std::string detail) {
  for (AnnounceProblem& p : summary_.problems) {
    if (p.reason == reason) {
      ++p.count;
      return;
    }
  }
  summary_.problems.push_back({std::string(reason), 1, std::move(detail)});
}

void AnnounceParser::Impl::Stop(std::string_view reason, std::string detail) {
  if (stopped_) return;
  Problem(reason, std::move(detail));
  stopped_ = true;
  XML_StopParser(parser_, XML_FALSE);
}

void AnnounceParser::Impl::StartRoot(Name n) {
  AnnounceKind k = AnnounceKind::kUnknown;
  if (IsSitemapNs(n.ns) && n.local == "urlset") k = AnnounceKind::kUrlset;
  if (IsSitemapNs(n.ns) && n.local == "sitemapindex") k = AnnounceKind::kSitemapIndex;
  if (n.ns.empty() && n.local == "rss") k = AnnounceKind::kRss;
  if (n.ns == kAtomNs && n.local == "feed") k = AnnounceKind::kAtom;
  summary_.kind = k;
  if (k == AnnounceKind::kUnknown) {
    Stop("not_announcement", "root element <" + std::string(n.local) + "> in namespace '" +
                                 std::string(n.ns) + "'");
    return;
  }
  if ((k == AnnounceKind::kUrlset || k == AnnounceKind::kSitemapIndex) && n.ns != kSitemapNs) {
    Problem("sitemap_namespace", "namespace '" + std::string(n.ns) + "' (read as 0.9)");
  }
}

Tag AnnounceParser::Impl::AtomChild(Name n, const XML_Char** atts) {
  if (n.ns != kAtomNs) return Tag::kOther;
  if (n.local == "updated") return Tag::kLastmod;
  if (n.local == "published") return Tag::kPublished;
  if (n.local == "title") return Tag::kTitle;
  if (n.local != "link" || raw_.has_loc) return Tag::kOther;
  const char* rel = Attr(atts, "rel");
  const char* href = Attr(atts, "href");
  if (href != nullptr && (rel == nullptr || std::string_view(rel) == "alternate")) {
    raw_.loc = href;
    raw_.has_loc = true;
  }
  return Tag::kOther;
}

// The tag of an element at `depth` (>= 1) whose parent is `parent`.
Tag AnnounceParser::Impl::ChildTag(Name n, Tag parent, int depth, const XML_Char** atts) {
  const AnnounceKind k = summary_.kind;
  const bool sm = k == AnnounceKind::kUrlset || k == AnnounceKind::kSitemapIndex;
  if (depth == 1) {
    if (sm && IsSitemapNs(n.ns) && n.local == (k == AnnounceKind::kUrlset ? "url" : "sitemap")) {
      return Tag::kEntry;
    }
    if (k == AnnounceKind::kRss && n.ns.empty() && n.local == "channel") return Tag::kChannel;
    if (k == AnnounceKind::kAtom && n.ns == kAtomNs && n.local == "entry") return Tag::kEntry;
    return Tag::kOther;
  }
  if (k == AnnounceKind::kRss && depth == 2 && parent == Tag::kChannel) {
    return n.ns.empty() && n.local == "item" ? Tag::kEntry : Tag::kOther;
  }
  if (parent == Tag::kNews) {
    if (n.ns == kNewsNs && n.local == "title") return Tag::kTitle;
    return n.ns == kNewsNs && n.local == "publication_date" ? Tag::kPublished : Tag::kOther;
  }
  if (parent != Tag::kEntry) return Tag::kOther;
  if (k == AnnounceKind::kAtom) return AtomChild(n, atts);
  if (k == AnnounceKind::kRss) {
    if (!n.ns.empty()) return Tag::kOther;
    if (n.local == "link") return Tag::kLoc;
    if (n.local == "pubDate") return Tag::kPublished;
    if (n.local == "title") return Tag::kTitle;
    const char* perma = Attr(atts, "isPermaLink");
    if (n.local == "guid" && (perma == nullptr || std::string_view(perma) != "false")) {
      return Tag::kGuid;
    }
    return Tag::kOther;
  }
  if (n.ns == kNewsNs && n.local == "news") return Tag::kNews;
  if (!IsSitemapNs(n.ns)) return Tag::kOther;  // image:, video:, xhtml: ... tolerated
  if (n.local == "loc") return Tag::kLoc;
  if (n.local == "lastmod") return Tag::kLastmod;
  if (k == AnnounceKind::kUrlset && n.local == "changefreq") return Tag::kChangefreq;
  if (k == AnnounceKind::kUrlset && n.local == "priority") return Tag::kPriority;
  return Tag::kOther;
}

void AnnounceParser::Impl::Start(Name n, const XML_Char** atts) {
  const int64_t d = depth_++;
  if (stopped_) return;
  Tag tag = Tag::kRoot;
  if (d == 0) {
    StartRoot(n);
  } else {
    Tag parent = d - 1 < kPathDepth ? path_[d - 1] : Tag::kOther;
    tag = d < kPathDepth ? ChildTag(n, parent, static_cast<int>(d), atts) : Tag::kOther;
  }
  if (d < kPathDepth) path_[d] = tag;
  if (tag == Tag::kEntry) {
    in_entry_ = true;
    raw_.Clear();
    return;
  }
  std::string* target = nullptr;
  switch (tag) {
    case Tag::kLoc: raw_.has_loc = true; target = &raw_.loc; break;
    case Tag::kGuid:
      if (!raw_.has_loc) target = &raw_.loc;  // <link> wins over <guid>
      break;
    case Tag::kLastmod: raw_.has_lastmod = true; target = &raw_.lastmod; break;
    case Tag::kChangefreq: raw_.has_changefreq = true; target = &raw_.changefreq; break;
    case Tag::kPriority: raw_.has_priority = true; target = &raw_.priority; break;
    case Tag::kPublished: raw_.has_published = true; target = &raw_.published; break;
    case Tag::kTitle: raw_.has_title = true; target = &raw_.title; break;
    default: break;
  }
  if (target != nullptr) {
    target->clear();
    target_ = target;
    capture_ = tag;
  }
}

void AnnounceParser::Impl::End() {
  const int64_t d = --depth_;
  if (stopped_ || d >= kPathDepth) return;
  Tag tag = path_[d];
  if (tag == capture_ && target_ != nullptr) {
    if (tag == Tag::kGuid && !raw_.loc.empty()) raw_.has_loc = true;
    target_ = nullptr;
    capture_ = Tag::kOther;
  }
  if (tag == Tag::kEntry && in_entry_) {
    in_entry_ = false;
    Emit();
  }
}

void AnnounceParser::Impl::Text(std::string_view s) {
  if (stopped_ || target_ == nullptr) return;
  size_t room = limits_.max_field_bytes - std::min(limits_.max_field_bytes, target_->size());
  if (s.size() > room) field_cut_ = true;
  target_->append(s.substr(0, room));
}

std::optional<int64_t> AnnounceParser::Impl::CheckDate(std::optional<int64_t> ms,
                                                        const std::string& text) {
  if (!ms) {
    Problem("bad_date", "unparsable date '" + text.substr(0, 64) + "'");
    return std::nullopt;
  }
  if (limits_.now_ms > 0 && *ms > limits_.now_ms + limits_.future_slack_ms) {
    Problem("future_date", "date in the future '" + text.substr(0, 64) + "'");
    return std::nullopt;
  }
  if (*ms <= 0) {
    Problem("bad_date", "date before 1970 '" + text.substr(0, 64) + "'");
    return std::nullopt;
  }
  return ms;
}

void AnnounceParser::Impl::ReadDates(AnnouncedEntry* e) {
  const bool rss = summary_.kind == AnnounceKind::kRss;
  if (raw_.has_lastmod) {
    e->lastmod_ms = CheckDate(ParseW3cDatetime(raw_.lastmod), raw_.lastmod).value_or(0);
  }
  if (raw_.has_published) {
    std::optional<int64_t> p =
        rss ? ParseRfc822Date(raw_.published) : ParseW3cDatetime(raw_.published);
    if (!p && rss) p = ParseW3cDatetime(raw_.published);  // a common RSS mistake
    e->published_ms = CheckDate(p, raw_.published).value_or(0);
  }
  // A feed item's date is its last change as far as the feed says.
  if (rss && e->lastmod_ms == 0) e->lastmod_ms = e->published_ms;
}

// SitemapMayList(url_, url, scope_) with the sitemap's directory computed
// once.
bool AnnounceParser::Impl::MayList(std::string_view url) const {
  if (scope_.unrestricted) return true;
  if (!directory_.empty() && url.substr(0, directory_.size()) == directory_) return true;
  for (const std::string& root : scope_.extra_roots) {
    if (url.substr(0, root.size()) == root) return true;
  }
  return false;
}

// The entry's URL after the resolution and location rules, into entry_.loc;
// false = rejected (recorded).
bool AnnounceParser::Impl::EntryUrl() {
  std::string_view loc = Trim(raw_.loc);
  if (loc.empty()) {
    Problem("missing_loc", "entry without a URL");
    return false;
  }
  const bool feed = IsFeed(summary_.kind);
  // Most <loc>s are canonical already: then the canonical form is the
  // text itself (no parse, no allocation: entry_.loc keeps its buffer).
  // Sitemaps list fully qualified URLs (protocol: "<loc> ... must begin
  // with the protocol"); feed links may be relative to the feed.
  if (IsPlainCanonicalUrl(loc)) {
    entry_.loc.assign(loc);
  } else if (std::optional<std::string> url =
                 ResolveLink(feed ? std::string_view(url_) : "", loc)) {
    entry_.loc = std::move(*url);
  } else {
    Problem("bad_url", "unusable URL '" + std::string(loc.substr(0, 200)) + "'");
    return false;
  }
  const std::string& url = entry_.loc;
  if (summary_.kind == AnnounceKind::kSitemapIndex && !scope_.unrestricted &&
      Origin(url) != Origin(url_)) {
    Problem("outside_scope", "sitemap of another site: " + url.substr(0, 200));
    return false;
  }
  if (summary_.kind == AnnounceKind::kUrlset && !MayList(url)) {
    Problem("outside_scope", "URL outside the sitemap's scope: " + url.substr(0, 200));
    return false;
  }
  return true;
}

void AnnounceParser::Impl::Emit() {
  if (field_cut_) {
    field_cut_ = false;
    Problem("field_too_long", "a field longer than " + std::to_string(limits_.max_field_bytes) +
                                  " bytes");
    ++summary_.rejected;
    return;
  }
  if (static_cast<size_t>(summary_.entries) >= limits_.max_entries) {
    ++summary_.rejected;
    Stop("too_many_entries",
         "more than " + std::to_string(limits_.max_entries) + " entries: the rest ignored");
    return;
  }
  if (!EntryUrl()) {
    ++summary_.rejected;
    return;
  }
  // One entry object for the whole document: its strings keep their
  // buffers from one entry to the next.
  AnnouncedEntry& e = entry_;
  e.lastmod_ms = e.published_ms = 0;
  e.changefreq = ChangeFreq::kNone;
  e.priority = -1;
  e.title.clear();
  ReadDates(&e);
  if (raw_.has_title) e.title = EntryTitle(raw_.title);
  if (raw_.has_changefreq) {
    e.changefreq = ParseChangeFreq(raw_.changefreq);
    if (e.changefreq == ChangeFreq::kNone) Problem("bad_changefreq", raw_.changefreq.substr(0, 64));
  }
  if (raw_.has_priority) {
    const std::string_view p = Trim(raw_.priority);
    double v = -1;
    const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
    if (p.empty() || ec != std::errc() || end != p.data() + p.size() || !(v >= 0 && v <= 1)) {
      Problem("bad_priority", std::string(p.substr(0, 64)));
    } else {
      e.priority = static_cast<float>(v);
    }
  }
  ++summary_.entries;
  fn_(e);
}

bool AnnounceParser::Impl::ParseXml(const char* data, size_t n) {
  if (stopped_) return false;
  size_t room = limits_.max_bytes - static_cast<size_t>(summary_.bytes);
  bool over = n > room;
  size_t take = over ? room : n;
  summary_.bytes += static_cast<int64_t>(take);
  if (XML_Parse(parser_, data, static_cast<int>(take), XML_FALSE) == XML_STATUS_ERROR) {
    if (!stopped_) {
      Stop("malformed_xml", std::string(XML_ErrorString(XML_GetErrorCode(parser_))) +
                                " at line " + std::to_string(XML_GetCurrentLineNumber(parser_)));
    }
    return false;
  }
  if (over) {
    Stop("too_large", "more than " + std::to_string(limits_.max_bytes) +
                          " bytes of XML (after gunzip): the rest ignored");
  }
  return !stopped_;
}

bool AnnounceParser::Impl::Inflate(std::string_view bytes) {
  z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z_.avail_in = static_cast<uInt>(bytes.size());
  char out[64 * 1024];
  while (z_.avail_in > 0 && !stopped_) {
    if (inflate_done_) {  // a further gzip member (RFC 1952 allows several)
      if (inflateReset(&z_) != Z_OK) break;
      inflate_done_ = false;
    }
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = sizeof(out);
    int rc = inflate(&z_, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      Stop("gzip_error", z_.msg != nullptr ? z_.msg : "inflate failed");
      return false;
    }
    size_t got = sizeof(out) - z_.avail_out;
    if (got > 0 && !ParseXml(out, got)) return false;
    if (rc == Z_STREAM_END) inflate_done_ = true;
    if (rc == Z_BUF_ERROR && got == 0) break;
  }
  return !stopped_;
}

bool AnnounceParser::Impl::Feed(std::string_view bytes) {
  if (stopped_ || finished_) return false;
  if (!sniffed_) {
    size_t take = std::min(2 - head_.size(), bytes.size());
    head_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
    if (head_.size() < 2) return true;
    sniffed_ = true;
    summary_.gzip = static_cast<unsigned char>(head_[0]) == 0x1f &&
                    static_cast<unsigned char>(head_[1]) == 0x8b;
    if (summary_.gzip) {
      if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) {
        Stop("gzip_error", "inflateInit2 failed");
        return false;
      }
      inflating_ = true;
    }
    std::string head = std::move(head_);
    if (!(summary_.gzip ? Inflate(head) : ParseXml(head.data(), head.size()))) return false;
  }
  if (bytes.empty()) return !stopped_;
  return summary_.gzip ? Inflate(bytes) : ParseXml(bytes.data(), bytes.size());
}

const AnnounceSummary& AnnounceParser::Impl::Finish() {
  if (finished_) return summary_;
  if (!stopped_ && !sniffed_ && !head_.empty()) {  // a one-byte body
    sniffed_ = true;
    std::string head = std::move(head_);
    ParseXml(head.data(), head.size());
  }
  finished_ = true;
  if (stopped_) return summary_;
  if (summary_.gzip && !inflate_done_) {
    Stop("gzip_error", "gzip stream ends early");
    return summary_;
  }
  if (XML_Parse(parser_, nullptr, 0, XML_TRUE) == XML_STATUS_ERROR) {
    if (!stopped_) {
      Stop("malformed_xml", std::string(XML_ErrorString(XML_GetErrorCode(parser_))) +
                                " at line " + std::to_string(XML_GetCurrentLineNumber(parser_)));
    }
    return summary_;
  }
  summary_.complete = !stopped_;
  return summary_;
}

AnnounceParser::AnnounceParser(std::string document_url, AnnounceLimits limits,
                               AnnounceScope scope, EntryFn on_entry)
    : impl_(std::make_unique<Impl>(std::move(document_url), limits, std::move(scope),
                                   std::move(on_entry))) {}
AnnounceParser::~AnnounceParser() = default;
bool AnnounceParser::Feed(std::string_view bytes) { return impl_->Feed(bytes); }
const AnnounceSummary& AnnounceParser::Finish() { return impl_->Finish(); }
AnnounceKind AnnounceParser::kind() const { return impl_->kind(); }

AnnounceSummary ParseAnnouncement(const std::string& document_url, std::string_view body,
                                  const AnnounceLimits& limits, const AnnounceScope& scope,
                                  const AnnounceParser::EntryFn& on_entry) {
  AnnounceParser parser(document_url, limits, scope, on_entry);
  parser.Feed(body);
  return parser.Finish();
}

}  // namespace topicrawl
